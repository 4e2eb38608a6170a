# The fuzz targets: optiml_fuzz_target(NAME LIBS ... SEEDS ...), defined in CMakeLists.txt.
optiml_fuzz_target(spec LIBS optiml_spec
                   SEEDS examples/*.optiml.json tests/data/kernels/*.optiml.json)
optiml_fuzz_target(entry_manifest LIBS optiml_cache
                   SEEDS examples/*/optiml-seed/*manifest.json tests/fuzz/seeds/entry_manifest/*)
optiml_fuzz_target(expr LIBS optiml_spec SEEDS tests/fuzz/seeds/expr/*)
optiml_fuzz_target(remote_response LIBS optiml_cache SEEDS tests/fuzz/seeds/remote_response/*)
optiml_fuzz_target(llm_response LIBS optiml_llm
                   SEEDS tests/data/llm/*.md tests/fuzz/seeds/llm_response/*)
optiml_fuzz_target(fill_file LIBS optiml_spec SEEDS tests/fuzz/seeds/fill_file/*)
optiml_fuzz_target(activity LIBS optiml_init SEEDS tests/fuzz/seeds/activity/*)
optiml_fuzz_target(replay_kernel_tuner LIBS optiml_replay
                   SEEDS tests/unit/search/data/kernel_tuner_cache.json
                         tests/unit/search/data/optiml_recording.json
                         tests/fuzz/seeds/replay_kernel_tuner/*)
optiml_fuzz_target(replay_t4 LIBS optiml_replay
                   SEEDS tests/unit/search/data/t4_results.json tests/fuzz/seeds/replay_t4/*)
optiml_fuzz_target(compile_commands LIBS optiml_identity SEEDS tests/fuzz/seeds/compile_commands/*)
