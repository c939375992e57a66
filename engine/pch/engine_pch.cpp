// Compiles engine/pch/engine_pch.h once; the engine's layers, the CLI, the
// viewer and the benchmarks reuse the result (target_precompile_headers
// REUSE_FROM stiction_engine_pch).
