"""The ``ascend`` dialect (IR definitions only: attributes, types, ops and their verifiers)."""
