// Compiles tests/pch/test_pch.h once; every test executable reuses the
// result (target_precompile_headers REUSE_FROM stiction_test_pch).
