// ascend-run interprets what ascend-conv compiled, and the sanitizer points at the source line.
//
// RUN: ascend-conv bp-filter --input 1,16,2,6,6 --weight 16,16,1,3,3 --padding 1 --cores 2 --emit hw -o %t.mlir
// RUN: ascend-run %t.mlir --random-inputs --check --output-dir %t.d | filecheck %s --check-prefix=CHECKED
// RUN: ascend-run %t.mlir --random-inputs --sanitize --output-dir %t.d | filecheck %s --check-prefix=CLEAN
// RUN: not ascend-run %S/../Inputs/missing_flag.mlir --random-inputs --sanitize 2>&1 | filecheck %s --check-prefix=HAZARD
// RUN: not ascend-run %t.mlir --output-dir %t.e 2>&1 | filecheck %s --check-prefix=NODATA

// This file is only the carrier of the CHECK lines: ascend-conv builds the kernel.

// CHECKED:      check: max abs error {{.*}}, max rel error {{.*}} (tolerance up to {{.*}}; worst element at {{.*}} of its tolerance): OK
// CHECKED-NEXT: wrote {{.*}}.d/conv3d_bp_filter.npy (16x16x1x3x3 f32)
// CHECKED-EMPTY:

// CLEAN:      sanitizer: no hazards
// CLEAN-NEXT: wrote {{.*}}.d/conv3d_bp_filter.npy (16x16x1x3x3 f32)

// HAZARD:      hazard: RAW hazard on L1 bytes [0, 512) in block 0: ascend.load3d at {{.*}}missing_flag.mlir:15:3 on MTE1 reads what ascend.data_copy at {{.*}}missing_flag.mlir:14:3 on MTE2 wrote, with no flag or barrier ordering them
// HAZARD-NEXT: sanitizer: 1 hazard
// HAZARD-NEXT: @host returned no results; nothing written
// HAZARD-NOT:  Traceback

// NODATA:     ascend-run: error: no data for argument %x (memref<1x16x2x6x6xf16>) of @conv3d_bp_filter: give --input x=FILE.npy or --random-inputs
// NODATA-NOT: Traceback
