// RUN: ascend-opt %s --split-input-file --verify-diagnostics | filecheck %s

// One chunk per verifier rule of docs/hw-level-spec.md (and per extra rule the dialect adds:
// non-negative offsets/strides/pads, slot in range, channels a multiple of C0). Rules enforced
// by the !ascend.local_tensor type (not GM, CO1 holds f32) are reported while parsing.

// alloc_buffer: the result must be a local_tensor
%b = "ascend.alloc_buffer"() <{slots = 1 : i64}> : () -> !ascend.gm_tensor<ND, 4096xf16>
// CHECK: Operation does not verify: result must be a !ascend.local_tensor (a buffer cannot be in GM), got !ascend.gm_tensor<ND, 4096xf16>

// -----

// alloc_buffer: position not GM (rejected by the local_tensor type)
%b = ascend.alloc_buffer slots 1 : !ascend.local_tensor<GM, 256xf16>
// CHECK: local_tensor cannot be in GM; use !ascend.gm_tensor

// -----

// alloc_buffer: slots in {1, 2}
%b = ascend.alloc_buffer slots 3 : !ascend.local_tensor<A1, 256xf16>
// CHECK: Operation does not verify: slots must be 1 or 2, got 3

// -----

// alloc_buffer: slots in {1, 2}
%b = ascend.alloc_buffer slots 0 : !ascend.local_tensor<A1, 256xf16>
// CHECK: Operation does not verify: slots must be 1 or 2, got 0

// -----

// alloc_buffer: offset non-negative
%b = ascend.alloc_buffer slots 1 offset -32 : !ascend.local_tensor<A1, 256xf16>
// CHECK: Operation does not verify: offset must be non-negative, got -32

// -----

// alloc_buffer: offset aligned (L1: 32 B)
%b = ascend.alloc_buffer slots 1 offset 16 : !ascend.local_tensor<A1, 256xf16>
// CHECK: Operation does not verify: offset 16 is not a multiple of the 32-byte alignment of L1

// -----

// alloc_buffer: offset aligned (L0A/L0B: 512 B)
%b = ascend.alloc_buffer slots 1 offset 256 : !ascend.local_tensor<B2, 256xf16>
// CHECK: Operation does not verify: offset 256 is not a multiple of the 512-byte alignment of L0B

// -----

// alloc_buffer: offset aligned (L0C: 64 B)
%b = ascend.alloc_buffer slots 1 offset 32 : !ascend.local_tensor<CO1, 256xf32>
// CHECK: Operation does not verify: offset 32 is not a multiple of the 64-byte alignment of L0C

// -----

// alloc_buffer: offset + slots * slot_stride <= capacity (L1)
%b = ascend.alloc_buffer slots 2 offset 32 : !ascend.local_tensor<A1, 131072xf16>
// CHECK: Operation does not verify: buffer does not fit in L1: offset 32 + 2 slot(s) x 262144 bytes = 524320 > capacity 524288 bytes

// -----

// alloc_buffer: capacity of L0A, slot_stride aligned up to 512 B
%b = ascend.alloc_buffer slots 2 : !ascend.local_tensor<A2, 16392xf16>
// CHECK: Operation does not verify: buffer does not fit in L0A: offset 0 + 2 slot(s) x 33280 bytes = 66560 > capacity 65536 bytes

// -----

// alloc_buffer: capacity of L0C
%b = ascend.alloc_buffer slots 1 offset 64 : !ascend.local_tensor<CO1, 32768xf32>
// CHECK: Operation does not verify: buffer does not fit in L0C: offset 64 + 1 slot(s) x 131072 bytes = 131136 > capacity 131072 bytes

// -----

// data_copy: src is a gm_tensor
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<A1, 256xf16>, !ascend.local_tensor<A1, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.data_copy %src[%c0] -> %dst[%c0, %c0] count %c1 len %c16 src_stride %c0 dst_stride %c0 : !ascend.local_tensor<A1, 256xf16> -> !ascend.local_tensor<A1, 256xf16>
// CHECK: Operation does not verify: src must be a !ascend.gm_tensor, got !ascend.local_tensor<A1, 256xf16>

// -----

// data_copy: dst is a local_tensor
%src, %dst = "test.op"() : () -> (!ascend.gm_tensor<ND, 4096xf16>, !ascend.gm_tensor<ND, 4096xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.data_copy %src[%c0] -> %dst[%c0, %c0] count %c1 len %c16 src_stride %c0 dst_stride %c0 : !ascend.gm_tensor<ND, 4096xf16> -> !ascend.gm_tensor<ND, 4096xf16>
// CHECK: Operation does not verify: dst must be a !ascend.local_tensor in A1 or B1 or C1, got !ascend.gm_tensor<ND, 4096xf16>

// -----

// data_copy: dst in A1, B1 or C1
%src, %dst = "test.op"() : () -> (!ascend.gm_tensor<ND, 4096xf16>, !ascend.local_tensor<A2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.data_copy %src[%c0] -> %dst[%c0, %c0] count %c1 len %c16 src_stride %c0 dst_stride %c0 : !ascend.gm_tensor<ND, 4096xf16> -> !ascend.local_tensor<A2, 256xf16>
// CHECK: Operation does not verify: dst must be in A1 or B1 or C1, got A2

// -----

// data_copy: equal element types
%src, %dst = "test.op"() : () -> (!ascend.gm_tensor<ND, 4096xf32>, !ascend.local_tensor<B1, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.data_copy %src[%c0] -> %dst[%c0, %c0] count %c1 len %c16 src_stride %c0 dst_stride %c0 : !ascend.gm_tensor<ND, 4096xf32> -> !ascend.local_tensor<B1, 256xf16>
// CHECK: Operation does not verify: element types differ: src is f32, dst is f16

// -----

// data_copy: 1 <= count
%src, %dst = "test.op"() : () -> (!ascend.gm_tensor<ND, 4096xf16>, !ascend.local_tensor<A1, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.data_copy %src[%c0] -> %dst[%c0, %c0] count %c0 len %c16 src_stride %c0 dst_stride %c0 : !ascend.gm_tensor<ND, 4096xf16> -> !ascend.local_tensor<A1, 256xf16>
// CHECK: Operation does not verify: count must be in [1, 4095], got 0

// -----

// fill: dst in A1 or B1 (Fill into L1; the lowering zeroes nothing else)
%dst = "test.op"() : () -> (!ascend.local_tensor<A2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
ascend.fill %dst[%c0, %c0] repeat %c1 blocks %c1 gap %c0 : !ascend.local_tensor<A2, 256xf16>
// CHECK: Operation does not verify: dst must be in A1 or B1, got A2

// -----

// fill: repeat >= 1 (0 is the hardware's NOP)
%dst = "test.op"() : () -> (!ascend.local_tensor<A1, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
ascend.fill %dst[%c0, %c0] repeat %c0 blocks %c1 gap %c0 : !ascend.local_tensor<A1, 256xf16>
// CHECK: Operation does not verify: repeat must be in [1, 32767], got 0

// -----

// fill: block_num <= 32767
%dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%n = arith.constant 32768 : index
ascend.fill %dst[%c0, %c0] repeat %c1 blocks %n gap %c0 : !ascend.local_tensor<B1, 256xf16>
// CHECK: Operation does not verify: block_num must be in [1, 32767], got 32768

// -----

// fill: dst_gap <= 32767
%dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%n = arith.constant 32768 : index
ascend.fill %dst[%c0, %c0] repeat %c1 blocks %c1 gap %n : !ascend.local_tensor<B1, 256xf16>
// CHECK: Operation does not verify: dst_gap must be in [0, 32767], got 32768

// -----

// data_copy: count <= 4095
%src, %dst = "test.op"() : () -> (!ascend.gm_tensor<ND, 4096xf16>, !ascend.local_tensor<A1, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%n = arith.constant 4096 : index
ascend.data_copy %src[%c0] -> %dst[%c0, %c0] count %n len %c16 src_stride %c0 dst_stride %c0 : !ascend.gm_tensor<ND, 4096xf16> -> !ascend.local_tensor<A1, 256xf16>
// CHECK: Operation does not verify: count must be in [1, 4095], got 4096

// -----

// data_copy: 1 <= len
%src, %dst = "test.op"() : () -> (!ascend.gm_tensor<ND, 4096xf16>, !ascend.local_tensor<A1, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.data_copy %src[%c0] -> %dst[%c0, %c0] count %c1 len %c0 src_stride %c0 dst_stride %c0 : !ascend.gm_tensor<ND, 4096xf16> -> !ascend.local_tensor<A1, 256xf16>
// CHECK: Operation does not verify: len must be in [1, 65535], got 0

// -----

// data_copy: len <= 65535
%src, %dst = "test.op"() : () -> (!ascend.gm_tensor<ND, 4096xf16>, !ascend.local_tensor<A1, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%n = arith.constant 65536 : index
ascend.data_copy %src[%c0] -> %dst[%c0, %c0] count %c1 len %n src_stride %c0 dst_stride %c0 : !ascend.gm_tensor<ND, 4096xf16> -> !ascend.local_tensor<A1, 256xf16>
// CHECK: Operation does not verify: len must be in [1, 65535], got 65536

// -----

// data_copy: 0 <= src_stride
%src, %dst = "test.op"() : () -> (!ascend.gm_tensor<ND, 4096xf16>, !ascend.local_tensor<A1, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%n = arith.constant -1 : index
ascend.data_copy %src[%c0] -> %dst[%c0, %c0] count %c1 len %c16 src_stride %n dst_stride %c0 : !ascend.gm_tensor<ND, 4096xf16> -> !ascend.local_tensor<A1, 256xf16>
// CHECK: Operation does not verify: src_stride must be in [0, 65535], got -1

// -----

// data_copy: src_stride <= 65535
%src, %dst = "test.op"() : () -> (!ascend.gm_tensor<ND, 4096xf16>, !ascend.local_tensor<A1, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%n = arith.constant 65536 : index
ascend.data_copy %src[%c0] -> %dst[%c0, %c0] count %c1 len %c16 src_stride %n dst_stride %c0 : !ascend.gm_tensor<ND, 4096xf16> -> !ascend.local_tensor<A1, 256xf16>
// CHECK: Operation does not verify: src_stride must be in [0, 65535], got 65536

// -----

// data_copy: 0 <= dst_stride
%src, %dst = "test.op"() : () -> (!ascend.gm_tensor<ND, 4096xf16>, !ascend.local_tensor<A1, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%n = arith.constant -1 : index
ascend.data_copy %src[%c0] -> %dst[%c0, %c0] count %c1 len %c16 src_stride %c0 dst_stride %n : !ascend.gm_tensor<ND, 4096xf16> -> !ascend.local_tensor<A1, 256xf16>
// CHECK: Operation does not verify: dst_stride must be in [0, 65535], got -1

// -----

// data_copy: dst_stride <= 65535
%src, %dst = "test.op"() : () -> (!ascend.gm_tensor<ND, 4096xf16>, !ascend.local_tensor<A1, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%n = arith.constant 65536 : index
ascend.data_copy %src[%c0] -> %dst[%c0, %c0] count %c1 len %c16 src_stride %c0 dst_stride %n : !ascend.gm_tensor<ND, 4096xf16> -> !ascend.local_tensor<A1, 256xf16>
// CHECK: Operation does not verify: dst_stride must be in [0, 65535], got 65536

// -----

// data_copy: constant slot below the buffer's slot count
%src = "test.op"() : () -> !ascend.gm_tensor<ND, 4096xf16>
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%dst = ascend.alloc_buffer slots 1 : !ascend.local_tensor<A1, 256xf16>
ascend.data_copy %src[%c0] -> %dst[%c1, %c0] count %c1 len %c16 src_stride %c0 dst_stride %c0 : !ascend.gm_tensor<ND, 4096xf16> -> !ascend.local_tensor<A1, 256xf16>
// CHECK: Operation does not verify: dst slot must be in [0, 1), got 1

// -----

// load3d: src is a local_tensor
%src, %dst = "test.op"() : () -> (!ascend.gm_tensor<ND, 4096xf16>, !ascend.local_tensor<A2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [1, 1] transpose : !ascend.gm_tensor<ND, 4096xf16> -> !ascend.local_tensor<A2, 256xf16>
// CHECK: Operation does not verify: src must be a !ascend.local_tensor in A1 or B1, got !ascend.gm_tensor<ND, 4096xf16>

// -----

// load3d: src in A1 or B1
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<A2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [1, 1] transpose : !ascend.local_tensor<A2, 256xf16> -> !ascend.local_tensor<A2, 256xf16>
// CHECK: Operation does not verify: src must be in A1 or B1, got A2

// -----

// load3d: dst is a local_tensor
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<A1, 256xf16>, !ascend.gm_tensor<ND, 4096xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [1, 1] transpose : !ascend.local_tensor<A1, 256xf16> -> !ascend.gm_tensor<ND, 4096xf16>
// CHECK: Operation does not verify: dst must be a !ascend.local_tensor in A2, got !ascend.gm_tensor<ND, 4096xf16>

// -----

// load3d: A1 -> A2
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<A1, 256xf16>, !ascend.local_tensor<B2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [1, 1] transpose : !ascend.local_tensor<A1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK: Operation does not verify: a load3d from A1 must write A2, got B2

// -----

// load3d: B1 -> B2
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf16>, !ascend.local_tensor<A2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [1, 1] : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<A2, 256xf16>
// CHECK: Operation does not verify: a load3d from B1 must write B2, got A2

// -----

// load3d: B1 -> B2 does not set transpose
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf16>, !ascend.local_tensor<B2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [1, 1] transpose : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK: Operation does not verify: a load3d B1 -> B2 must not set transpose

// -----

// load3d: equal element types
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf16>, !ascend.local_tensor<B2, 256xbf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [1, 1] : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xbf16>
// CHECK: Operation does not verify: element types differ: src is f16, dst is bf16

// -----

// load3d: kernel has two values
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf16>, !ascend.local_tensor<B2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [3, 3, 3] stride [1, 1] dilation [1, 1] : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK: Operation does not verify: kernel must have 2 values [h, w], got 3

// -----

// load3d: kernel >= 1
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf16>, !ascend.local_tensor<B2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [0, 3] stride [1, 1] dilation [1, 1] : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK: Operation does not verify: kernel values must be in [1, 511], got [0, 3]

// -----

// load3d: kernel <= 511
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf16>, !ascend.local_tensor<B2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [3, 512] stride [1, 1] dilation [1, 1] : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK: Operation does not verify: kernel values must be in [1, 511], got [3, 512]

// -----

// load3d: stride has two values
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf16>, !ascend.local_tensor<B2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [2] dilation [1, 1] : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK: Operation does not verify: stride must have 2 values [h, w], got 1

// -----

// load3d: stride in [1, 63]
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf16>, !ascend.local_tensor<B2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [64, 1] dilation [1, 1] : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK: Operation does not verify: stride values must be in [1, 63], got [64, 1]

// -----

// load3d: stride >= 1
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf16>, !ascend.local_tensor<B2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 0] dilation [1, 1] : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK: Operation does not verify: stride values must be in [1, 63], got [1, 0]

// -----

// load3d: dilation has two values
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf16>, !ascend.local_tensor<B2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [] : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK: Operation does not verify: dilation must have 2 values [h, w], got 0

// -----

// load3d: dilation in [1, 255]
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf16>, !ascend.local_tensor<B2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [1, 256] : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK: Operation does not verify: dilation values must be in [1, 255], got [1, 256]

// -----

// load3d: dilation >= 1
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf16>, !ascend.local_tensor<B2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [0, 1] : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK: Operation does not verify: dilation values must be in [1, 255], got [0, 1]

// -----

// load3d: constant pad top <= 255
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf16>, !ascend.local_tensor<B2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%p = arith.constant 256 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %p, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [1, 1] : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK: Operation does not verify: pad top must be in [0, 255], got 256

// -----

// load3d: constant pad bottom <= 255
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf16>, !ascend.local_tensor<B2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%p = arith.constant 256 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %p, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [1, 1] : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK: Operation does not verify: pad bottom must be in [0, 255], got 256

// -----

// load3d: constant pad left <= 255
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf16>, !ascend.local_tensor<B2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%p = arith.constant 256 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %p, %c0 kernel [1, 1] stride [1, 1] dilation [1, 1] : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK: Operation does not verify: pad left must be in [0, 255], got 256

// -----

// load3d: constant pad right <= 255
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf16>, !ascend.local_tensor<B2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%p = arith.constant 256 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %p kernel [1, 1] stride [1, 1] dilation [1, 1] : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK: Operation does not verify: pad right must be in [0, 255], got 256

// -----

// load3d: constant pad >= 0
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf16>, !ascend.local_tensor<B2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%p = arith.constant -1 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %p, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [1, 1] : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK: Operation does not verify: pad top must be in [0, 255], got -1

// -----

// load3d: constant m_ext a multiple of 16
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf16>, !ascend.local_tensor<B2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%e = arith.constant 8 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %e pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [1, 1] : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK: Operation does not verify: m_ext must be a positive multiple of 16, got 8

// -----

// load3d: constant m_ext positive
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf16>, !ascend.local_tensor<B2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c0 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [1, 1] : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK: Operation does not verify: m_ext must be a positive multiple of 16, got 0

// -----

// load3d: constant k_ext a multiple of 16
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<A1, 256xf16>, !ascend.local_tensor<A2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%e = arith.constant 24 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %c16 window %c0, %e, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [1, 1] transpose : !ascend.local_tensor<A1, 256xf16> -> !ascend.local_tensor<A2, 256xf16>
// CHECK: Operation does not verify: k_ext must be a positive multiple of 16, got 24

// -----

// load3d: constant channels a multiple of C0
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf16>, !ascend.local_tensor<B2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%e = arith.constant 8 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %e window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [1, 1] : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK: Operation does not verify: channels must be a positive multiple of 16, got 8

// -----

// load3d: constant channels a multiple of C0 (f32: C0 = 8)
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf32>, !ascend.local_tensor<B2, 256xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%e = arith.constant 12 : index
ascend.load3d %src[%c0, %c0] -> %dst[%c0] fmap %c1, %c16, %e window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [1, 1] : !ascend.local_tensor<B1, 256xf32> -> !ascend.local_tensor<B2, 256xf32>
// CHECK: Operation does not verify: channels must be a positive multiple of 8, got 12

// -----

// load3d: constant src slot below the buffer's slot count
%dst = "test.op"() : () -> !ascend.local_tensor<B2, 256xf16>
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%src = ascend.alloc_buffer slots 2 : !ascend.local_tensor<B1, 256xf16>
%c2 = arith.constant 2 : index
ascend.load3d %src[%c2, %c0] -> %dst[%c0] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [1, 1] : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK: Operation does not verify: src slot must be in [0, 2), got 2

// -----

// load3d: constant dst slot non-negative
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf16>, !ascend.local_tensor<B2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%s = arith.constant -1 : index
ascend.load3d %src[%c0, %c0] -> %dst[%s] fmap %c1, %c16, %c16 window %c0, %c16, %c0, %c16 pad %c0, %c0, %c0, %c0 kernel [1, 1] stride [1, 1] dilation [1, 1] : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK: Operation does not verify: dst slot must be in [0, 2), got -1

// -----

// load2d: src is a local_tensor
%src, %dst = "test.op"() : () -> (!ascend.gm_tensor<ND, 4096xf16>, !ascend.local_tensor<B2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.load2d %src[%c0, %c0] -> %dst[%c0, %c0] repeat %c1 src_stride %c1 : !ascend.gm_tensor<ND, 4096xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK: Operation does not verify: src must be a !ascend.local_tensor in A1 or B1, got !ascend.gm_tensor<ND, 4096xf16>

// -----

// load2d: src in A1 or B1
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<CO1, 256xf32>, !ascend.local_tensor<B2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.load2d %src[%c0, %c0] -> %dst[%c0, %c0] repeat %c1 src_stride %c1 : !ascend.local_tensor<CO1, 256xf32> -> !ascend.local_tensor<B2, 256xf16>
// CHECK: Operation does not verify: src must be in A1 or B1, got CO1

// -----

// load2d: dst is a local_tensor
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf16>, !ascend.gm_tensor<ND, 4096xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.load2d %src[%c0, %c0] -> %dst[%c0, %c0] repeat %c1 src_stride %c1 : !ascend.local_tensor<B1, 256xf16> -> !ascend.gm_tensor<ND, 4096xf16>
// CHECK: Operation does not verify: dst must be a !ascend.local_tensor in B2, got !ascend.gm_tensor<ND, 4096xf16>

// -----

// load2d: A1 -> A2
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<A1, 256xf16>, !ascend.local_tensor<B2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.load2d %src[%c0, %c0] -> %dst[%c0, %c0] repeat %c1 src_stride %c1 : !ascend.local_tensor<A1, 256xf16> -> !ascend.local_tensor<B2, 256xf16>
// CHECK: Operation does not verify: a load2d from A1 must write A2, got B2

// -----

// load2d: B1 -> B2
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<B1, 256xf16>, !ascend.local_tensor<A2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.load2d %src[%c0, %c0] -> %dst[%c0, %c0] repeat %c1 src_stride %c1 transpose : !ascend.local_tensor<B1, 256xf16> -> !ascend.local_tensor<A2, 256xf16>
// CHECK: Operation does not verify: a load2d from B1 must write B2, got A2

// -----

// load2d: equal element types
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<A1, 256xf16>, !ascend.local_tensor<A2, 256xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.load2d %src[%c0, %c0] -> %dst[%c0, %c0] repeat %c1 src_stride %c1 : !ascend.local_tensor<A1, 256xf16> -> !ascend.local_tensor<A2, 256xf32>
// CHECK: Operation does not verify: element types differ: src is f16, dst is f32

// -----

// load2d: constant repeat >= 1
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<A1, 256xf16>, !ascend.local_tensor<A2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.load2d %src[%c0, %c0] -> %dst[%c0, %c0] repeat %c0 src_stride %c1 : !ascend.local_tensor<A1, 256xf16> -> !ascend.local_tensor<A2, 256xf16>
// CHECK: Operation does not verify: repeat must be in [1, 255], got 0

// -----

// load2d: constant repeat <= 255
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<A1, 256xf16>, !ascend.local_tensor<A2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%r = arith.constant 256 : index
ascend.load2d %src[%c0, %c0] -> %dst[%c0, %c0] repeat %r src_stride %c1 : !ascend.local_tensor<A1, 256xf16> -> !ascend.local_tensor<A2, 256xf16>
// CHECK: Operation does not verify: repeat must be in [1, 255], got 256

// -----

// load2d: constant src_stride >= 0
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<A1, 256xf16>, !ascend.local_tensor<A2, 256xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%s = arith.constant -1 : index
ascend.load2d %src[%c0, %c0] -> %dst[%c0, %c0] repeat %c1 src_stride %s : !ascend.local_tensor<A1, 256xf16> -> !ascend.local_tensor<A2, 256xf16>
// CHECK: Operation does not verify: src_stride must be non-negative, got -1

// -----

// load2d: constant dst slot below the buffer's slot count
%src = "test.op"() : () -> !ascend.local_tensor<A1, 256xf16>
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%dst = ascend.alloc_buffer slots 1 : !ascend.local_tensor<A2, 256xf16>
ascend.load2d %src[%c0, %c0] -> %dst[%c1, %c0] repeat %c1 src_stride %c1 : !ascend.local_tensor<A1, 256xf16> -> !ascend.local_tensor<A2, 256xf16>
// CHECK: Operation does not verify: dst slot must be in [0, 1), got 1

// -----

// mmad: a is a local_tensor
%a, %b, %c = "test.op"() : () -> (!ascend.gm_tensor<ND, 4096xf16>, !ascend.local_tensor<B2, 256xf16>, !ascend.local_tensor<CO1, 256xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%t = arith.constant true
ascend.mmad %a[%c0], %b[%c0] -> %c[%c0] m %c16 n %c16 k %c16 init %t : !ascend.gm_tensor<ND, 4096xf16>, !ascend.local_tensor<B2, 256xf16> -> !ascend.local_tensor<CO1, 256xf32>
// CHECK: Operation does not verify: a must be a !ascend.local_tensor in A2, got !ascend.gm_tensor<ND, 4096xf16>

// -----

// mmad: a in A2
%a, %b, %c = "test.op"() : () -> (!ascend.local_tensor<A1, 256xf16>, !ascend.local_tensor<B2, 256xf16>, !ascend.local_tensor<CO1, 256xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%t = arith.constant true
ascend.mmad %a[%c0], %b[%c0] -> %c[%c0] m %c16 n %c16 k %c16 init %t : !ascend.local_tensor<A1, 256xf16>, !ascend.local_tensor<B2, 256xf16> -> !ascend.local_tensor<CO1, 256xf32>
// CHECK: Operation does not verify: a must be in A2, got A1

// -----

// mmad: b in B2
%a, %b, %c = "test.op"() : () -> (!ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<CO1, 256xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%t = arith.constant true
ascend.mmad %a[%c0], %b[%c0] -> %c[%c0] m %c16 n %c16 k %c16 init %t : !ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<A2, 256xf16> -> !ascend.local_tensor<CO1, 256xf32>
// CHECK: Operation does not verify: b must be in B2, got A2

// -----

// mmad: c in CO1
%a, %b, %c = "test.op"() : () -> (!ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xf16>, !ascend.local_tensor<VECOUT, 256xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%t = arith.constant true
ascend.mmad %a[%c0], %b[%c0] -> %c[%c0] m %c16 n %c16 k %c16 init %t : !ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xf16> -> !ascend.local_tensor<VECOUT, 256xf32>
// CHECK: Operation does not verify: c must be in CO1, got VECOUT

// -----

// mmad: c holds f32 (rejected by the local_tensor type)
%c = "test.op"() : () -> !ascend.local_tensor<CO1, 256xf16>
// CHECK: local_tensor in CO1 holds f32 accumulators, got f16

// -----

// mmad: a and b equal element types
%a, %b, %c = "test.op"() : () -> (!ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xbf16>, !ascend.local_tensor<CO1, 256xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%t = arith.constant true
ascend.mmad %a[%c0], %b[%c0] -> %c[%c0] m %c16 n %c16 k %c16 init %t : !ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xbf16> -> !ascend.local_tensor<CO1, 256xf32>
// CHECK: Operation does not verify: element types differ: a is f16, b is bf16

// -----

// mmad: constant m >= 1
%a, %b, %c = "test.op"() : () -> (!ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xf16>, !ascend.local_tensor<CO1, 256xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%t = arith.constant true
ascend.mmad %a[%c0], %b[%c0] -> %c[%c0] m %c0 n %c16 k %c16 init %t : !ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xf16> -> !ascend.local_tensor<CO1, 256xf32>
// CHECK: Operation does not verify: m must be in [1, 4095], got 0

// -----

// mmad: constant n <= 4095
%a, %b, %c = "test.op"() : () -> (!ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xf16>, !ascend.local_tensor<CO1, 256xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%t = arith.constant true
%x = arith.constant 4096 : index
ascend.mmad %a[%c0], %b[%c0] -> %c[%c0] m %c16 n %x k %c16 init %t : !ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xf16> -> !ascend.local_tensor<CO1, 256xf32>
// CHECK: Operation does not verify: n must be in [1, 4095], got 4096

// -----

// mmad: constant k in [1, 4095]
%a, %b, %c = "test.op"() : () -> (!ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xf16>, !ascend.local_tensor<CO1, 256xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%t = arith.constant true
ascend.mmad %a[%c0], %b[%c0] -> %c[%c0] m %c16 n %c16 k %c0 init %t : !ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xf16> -> !ascend.local_tensor<CO1, 256xf32>
// CHECK: Operation does not verify: k must be in [1, 4095], got 0

// -----

// mmad: constant k <= 4095
%a, %b, %c = "test.op"() : () -> (!ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xf16>, !ascend.local_tensor<CO1, 256xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%t = arith.constant true
%x = arith.constant 4096 : index
ascend.mmad %a[%c0], %b[%c0] -> %c[%c0] m %c16 n %c16 k %x init %t : !ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xf16> -> !ascend.local_tensor<CO1, 256xf32>
// CHECK: Operation does not verify: k must be in [1, 4095], got 4096

// -----

// mmad: constant slot below the buffer's slot count
%b, %c = "test.op"() : () -> (!ascend.local_tensor<B2, 256xf16>, !ascend.local_tensor<CO1, 256xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%t = arith.constant true
%a = ascend.alloc_buffer slots 1 : !ascend.local_tensor<A2, 256xf16>
ascend.mmad %a[%c1], %b[%c0] -> %c[%c0] m %c16 n %c16 k %c16 init %t : !ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xf16> -> !ascend.local_tensor<CO1, 256xf32>
// CHECK: Operation does not verify: a slot must be in [0, 1), got 1

// -----

// fixpipe: src is a local_tensor
%src, %dst = "test.op"() : () -> (!ascend.gm_tensor<ND, 4096xf32>, !ascend.gm_tensor<ND, 4096xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.fixpipe %src[%c0] -> %dst[%c0] m %c16 n %c16 src_stride %c16 dst_stride %c16 : !ascend.gm_tensor<ND, 4096xf32> -> !ascend.gm_tensor<ND, 4096xf32>
// CHECK: Operation does not verify: src must be a !ascend.local_tensor in CO1, got !ascend.gm_tensor<ND, 4096xf32>

// -----

// fixpipe: src in CO1
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<A1, 256xf32>, !ascend.gm_tensor<ND, 4096xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.fixpipe %src[%c0] -> %dst[%c0] m %c16 n %c16 src_stride %c16 dst_stride %c16 : !ascend.local_tensor<A1, 256xf32> -> !ascend.gm_tensor<ND, 4096xf32>
// CHECK: Operation does not verify: src must be in CO1, got A1

// -----

// fixpipe: dst is a gm_tensor
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<CO1, 256xf32>, !ascend.local_tensor<CO1, 256xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.fixpipe %src[%c0] -> %dst[%c0] m %c16 n %c16 src_stride %c16 dst_stride %c16 : !ascend.local_tensor<CO1, 256xf32> -> !ascend.local_tensor<CO1, 256xf32>
// CHECK: Operation does not verify: dst must be a !ascend.gm_tensor of f32, f16 or bf16, got !ascend.local_tensor<CO1, 256xf32>

// -----

// fixpipe: dst holds f32, f16 or bf16
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<CO1, 256xf32>, !ascend.gm_tensor<ND, 4096xi32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.fixpipe %src[%c0] -> %dst[%c0] m %c16 n %c16 src_stride %c16 dst_stride %c16 : !ascend.local_tensor<CO1, 256xf32> -> !ascend.gm_tensor<ND, 4096xi32>
// CHECK: Operation does not verify: dst must be a !ascend.gm_tensor of f32, f16 or bf16, got !ascend.gm_tensor<ND, 4096xi32>

// -----

// fixpipe: the quantising mode (f16 / bf16 out) has no atomic add
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<CO1, 256xf32>, !ascend.gm_tensor<ND, 4096xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.fixpipe %src[%c0] -> %dst[%c0] m %c16 n %c16 src_stride %c16 dst_stride %c16 atomic : !ascend.local_tensor<CO1, 256xf32> -> !ascend.gm_tensor<ND, 4096xf16>
// CHECK: Operation does not verify: an atomic fixpipe must write f32 (the quantising mode into f16 has no atomic add)

// -----

// fixpipe: constant n a multiple of 16
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<CO1, 256xf32>, !ascend.gm_tensor<ND, 4096xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%x = arith.constant 24 : index
ascend.fixpipe %src[%c0] -> %dst[%c0] m %c16 n %x src_stride %c16 dst_stride %c16 : !ascend.local_tensor<CO1, 256xf32> -> !ascend.gm_tensor<ND, 4096xf32>
// CHECK: Operation does not verify: n must be a multiple of 16 in [16, 4095], got 24

// -----

// fixpipe: constant n >= 16
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<CO1, 256xf32>, !ascend.gm_tensor<ND, 4096xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.fixpipe %src[%c0] -> %dst[%c0] m %c16 n %c0 src_stride %c16 dst_stride %c16 : !ascend.local_tensor<CO1, 256xf32> -> !ascend.gm_tensor<ND, 4096xf32>
// CHECK: Operation does not verify: n must be a multiple of 16 in [16, 4095], got 0

// -----

// fixpipe: constant n <= 4095
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<CO1, 256xf32>, !ascend.gm_tensor<ND, 4096xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%x = arith.constant 4096 : index
ascend.fixpipe %src[%c0] -> %dst[%c0] m %c16 n %x src_stride %c16 dst_stride %c16 : !ascend.local_tensor<CO1, 256xf32> -> !ascend.gm_tensor<ND, 4096xf32>
// CHECK: Operation does not verify: n must be a multiple of 16 in [16, 4095], got 4096

// -----

// fixpipe: constant m >= 1
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<CO1, 256xf32>, !ascend.gm_tensor<ND, 4096xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
ascend.fixpipe %src[%c0] -> %dst[%c0] m %c0 n %c16 src_stride %c16 dst_stride %c16 : !ascend.local_tensor<CO1, 256xf32> -> !ascend.gm_tensor<ND, 4096xf32>
// CHECK: Operation does not verify: m must be in [1, 65535], got 0

// -----

// fixpipe: constant m <= 65535
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<CO1, 256xf32>, !ascend.gm_tensor<ND, 4096xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%x = arith.constant 65536 : index
ascend.fixpipe %src[%c0] -> %dst[%c0] m %x n %c16 src_stride %c16 dst_stride %c16 : !ascend.local_tensor<CO1, 256xf32> -> !ascend.gm_tensor<ND, 4096xf32>
// CHECK: Operation does not verify: m must be in [1, 65535], got 65536

// -----

// fixpipe: constant src_stride >= 0
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<CO1, 256xf32>, !ascend.gm_tensor<ND, 4096xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%x = arith.constant -16 : index
ascend.fixpipe %src[%c0] -> %dst[%c0] m %c16 n %c16 src_stride %x dst_stride %c16 : !ascend.local_tensor<CO1, 256xf32> -> !ascend.gm_tensor<ND, 4096xf32>
// CHECK: Operation does not verify: src_stride must be non-negative, got -16

// -----

// fixpipe: constant dst_stride >= 0
%src, %dst = "test.op"() : () -> (!ascend.local_tensor<CO1, 256xf32>, !ascend.gm_tensor<ND, 4096xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%x = arith.constant -1 : index
ascend.fixpipe %src[%c0] -> %dst[%c0] m %c16 n %c16 src_stride %c16 dst_stride %x : !ascend.local_tensor<CO1, 256xf32> -> !ascend.gm_tensor<ND, 4096xf32>
// CHECK: Operation does not verify: dst_stride must be non-negative, got -1

// -----

// fixpipe: constant slot below the buffer's slot count
%dst = "test.op"() : () -> !ascend.gm_tensor<ND, 4096xf32>
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%src = ascend.alloc_buffer slots 1 : !ascend.local_tensor<CO1, 256xf32>
ascend.fixpipe %src[%c1] -> %dst[%c0] m %c16 n %c16 src_stride %c16 dst_stride %c16 : !ascend.local_tensor<CO1, 256xf32> -> !ascend.gm_tensor<ND, 4096xf32>
// CHECK: Operation does not verify: src slot must be in [0, 1), got 1

// -----

// set_flag: src != dst
%e = arith.constant 0 : index
ascend.set_flag M -> M event %e
// CHECK: Operation does not verify: src and dst pipes must differ, got M -> M

// -----

// set_flag: src is not ALL
%e = arith.constant 0 : index
ascend.set_flag ALL -> M event %e
// CHECK: Operation does not verify: pipe ALL cannot be an event endpoint, got ALL -> M

// -----

// set_flag: dst is not ALL
%e = arith.constant 0 : index
ascend.set_flag FIX -> ALL event %e
// CHECK: Operation does not verify: pipe ALL cannot be an event endpoint, got FIX -> ALL

// -----

// set_flag: constant event id < 6 (user_event_ids: 6 and 7 are reserved for the framework)
%e = arith.constant 6 : index
ascend.set_flag MTE2 -> MTE1 event %e
// CHECK: Operation does not verify: event id must be in [0, 6), got 6

// -----

// set_flag: constant event id >= 0
%e = arith.constant -1 : index
ascend.set_flag M -> FIX event %e
// CHECK: Operation does not verify: event id must be in [0, 6), got -1

// -----

// wait_flag: src != dst
%e = arith.constant 0 : index
ascend.wait_flag M -> M event %e
// CHECK: Operation does not verify: src and dst pipes must differ, got M -> M

// -----

// wait_flag: src is not ALL
%e = arith.constant 0 : index
ascend.wait_flag ALL -> M event %e
// CHECK: Operation does not verify: pipe ALL cannot be an event endpoint, got ALL -> M

// -----

// wait_flag: dst is not ALL
%e = arith.constant 0 : index
ascend.wait_flag FIX -> ALL event %e
// CHECK: Operation does not verify: pipe ALL cannot be an event endpoint, got FIX -> ALL

// -----

// wait_flag: constant event id < 6 (user_event_ids: 6 and 7 are reserved for the framework)
%e = arith.constant 7 : index
ascend.wait_flag MTE2 -> MTE1 event %e
// CHECK: Operation does not verify: event id must be in [0, 6), got 7

// -----

// wait_flag: constant event id >= 0
%e = arith.constant -1 : index
ascend.wait_flag M -> FIX event %e
// CHECK: Operation does not verify: event id must be in [0, 6), got -1

// -----

// mmad: the bias is in C2 (the bias table)
%a, %b, %c, %bt = "test.op"() : () -> (!ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xf16>, !ascend.local_tensor<CO1, 256xf32>, !ascend.local_tensor<C1, 16xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%t = arith.constant true
ascend.mmad %a[%c0], %b[%c0] -> %c[%c0] m %c16 n %c16 k %c16 init %t bias %bt[%c0] : !ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xf16> -> !ascend.local_tensor<CO1, 256xf32> bias !ascend.local_tensor<C1, 16xf32>
// CHECK: Operation does not verify: bias must be in C2, got C1

// -----

// mmad: the bias table holds f32
%a, %b, %c, %bt = "test.op"() : () -> (!ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xf16>, !ascend.local_tensor<CO1, 256xf32>, !ascend.local_tensor<C2, 16xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%t = arith.constant true
ascend.mmad %a[%c0], %b[%c0] -> %c[%c0] m %c16 n %c16 k %c16 init %t bias %bt[%c0] : !ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xf16> -> !ascend.local_tensor<CO1, 256xf32> bias !ascend.local_tensor<C2, 16xf16>
// CHECK: Operation does not verify: the bias table holds f32, got f16

// -----

// mmad: the bias slot in range
%a, %b, %c = "test.op"() : () -> (!ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xf16>, !ascend.local_tensor<CO1, 256xf32>)
%bt = ascend.alloc_buffer slots 1 : !ascend.local_tensor<C2, 16xf32>
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%t = arith.constant true
ascend.mmad %a[%c0], %b[%c0] -> %c[%c0] m %c16 n %c16 k %c16 init %t bias %bt[%c1] : !ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xf16> -> !ascend.local_tensor<CO1, 256xf32> bias !ascend.local_tensor<C2, 16xf32>
// CHECK: Operation does not verify: bias slot must be in [0, 1), got 1

// -----

// mmad: a bias needs its slot (generic form: the segment sizes say one without the other)
%a, %b, %c, %bt = "test.op"() : () -> (!ascend.local_tensor<A2, 256xf16>, !ascend.local_tensor<B2, 256xf16>, !ascend.local_tensor<CO1, 256xf32>, !ascend.local_tensor<C2, 16xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c16 = arith.constant 16 : index
%t = arith.constant true
"ascend.mmad"(%a, %c0, %b, %c0, %c, %c0, %c16, %c16, %c16, %t, %bt) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0>}> : (!ascend.local_tensor<A2, 256xf16>, index, !ascend.local_tensor<B2, 256xf16>, index, !ascend.local_tensor<CO1, 256xf32>, index, index, index, index, i1, !ascend.local_tensor<C2, 16xf32>) -> ()
// CHECK: Operation does not verify: a bias needs its slot and a slot its bias

// -----

// load_bias: the source is in C1
%s, %d = "test.op"() : () -> (!ascend.local_tensor<A1, 32xf16>, !ascend.local_tensor<C2, 32xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
ascend.load_bias %s[%c0, %c0] -> %d[%c0] len %c1 : !ascend.local_tensor<A1, 32xf16> -> !ascend.local_tensor<C2, 32xf32>
// CHECK: Operation does not verify: src must be in C1, got A1

// -----

// load_bias: the destination is the bias table (C2)
%s, %d = "test.op"() : () -> (!ascend.local_tensor<C1, 32xf16>, !ascend.local_tensor<CO1, 32xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
ascend.load_bias %s[%c0, %c0] -> %d[%c0] len %c1 : !ascend.local_tensor<C1, 32xf16> -> !ascend.local_tensor<CO1, 32xf32>
// CHECK: Operation does not verify: dst must be in C2, got CO1

// -----

// load_bias: no bf16 source on Atlas A2
%s, %d = "test.op"() : () -> (!ascend.local_tensor<C1, 32xbf16>, !ascend.local_tensor<C2, 32xf32>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
ascend.load_bias %s[%c0, %c0] -> %d[%c0] len %c1 : !ascend.local_tensor<C1, 32xbf16> -> !ascend.local_tensor<C2, 32xf32>
// CHECK: Operation does not verify: a load_bias source must hold f16 or f32 (Atlas A2 has no bf16 path into the bias table), got bf16

// -----

// load_bias: the bias table holds f32
%s, %d = "test.op"() : () -> (!ascend.local_tensor<C1, 32xf16>, !ascend.local_tensor<C2, 32xf16>)
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
ascend.load_bias %s[%c0, %c0] -> %d[%c0] len %c1 : !ascend.local_tensor<C1, 32xf16> -> !ascend.local_tensor<C2, 32xf16>
// CHECK: Operation does not verify: the bias table holds f32, got f16

// -----

// load_bias: the slots in range
%s = ascend.alloc_buffer slots 1 : !ascend.local_tensor<C1, 32xf16>
%d = ascend.alloc_buffer slots 1 : !ascend.local_tensor<C2, 32xf32>
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
ascend.load_bias %s[%c1, %c0] -> %d[%c0] len %c1 : !ascend.local_tensor<C1, 32xf16> -> !ascend.local_tensor<C2, 32xf32>
// CHECK: Operation does not verify: src slot must be in [0, 1), got 1

// -----

%s = ascend.alloc_buffer slots 1 : !ascend.local_tensor<C1, 32xf16>
%d = ascend.alloc_buffer slots 1 : !ascend.local_tensor<C2, 32xf32>
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
ascend.load_bias %s[%c0, %c0] -> %d[%c1] len %c1 : !ascend.local_tensor<C1, 32xf16> -> !ascend.local_tensor<C2, 32xf32>
// CHECK: Operation does not verify: dst slot must be in [0, 1), got 1

// -----

// load_bias: len within the ISA limit
%s, %d = "test.op"() : () -> (!ascend.local_tensor<C1, 32xf16>, !ascend.local_tensor<C2, 32xf32>)
%c0 = arith.constant 0 : index
%z = arith.constant 0 : index
ascend.load_bias %s[%c0, %c0] -> %d[%c0] len %z : !ascend.local_tensor<C1, 32xf16> -> !ascend.local_tensor<C2, 32xf32>
// CHECK: Operation does not verify: len must be in [1, 65535], got 0
