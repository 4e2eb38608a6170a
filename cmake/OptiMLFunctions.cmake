# optiml_optimize_kernel(): marks a CUDA kernel of a target for build-time tuning.
#
#   optiml_optimize_kernel(<target> SPEC <file>
#                          [MODE auto|cache-only|retune|off]
#                          [ARCHS <arch>...]
#                          [CACHE_SEED <dir>...]
#                          [BUDGET_EVALUATIONS <n>] [BUDGET_SECONDS <s>]
#                          [LLM_BASE_URL <url>] [LLM_MODEL <name>] [LLM_TOKEN_BUDGET <n>]
#                          [LLM_REPLAY]
#                          [REMOTE_CACHE <url>] [REMOTE_CACHE_MODE read|read-write]
#                          [TRUSTED_KEYS <file>...])
#
# Without ARCHS, the architectures are the target's own as its compile command lists them at build
# time (CUDA_ARCHITECTURES or CMAKE_CUDA_ARCHITECTURES, set before or after this call, native,
# all and all-major included); ARCHS chooses among them. The kernel is compiled and measured
# with the target's CUDA flags (see _optiml_user_build_args below).
# At build time `optiml build` looks the kernel up in the cache (local, the seeds, the remote), tunes it
# when the mode and a GPU allow (compiling the spec's check.compare function, if any, with
# CMAKE_CXX_COMPILER), and generates <name>.h (include it as <optiml/<name>.h>) plus a .cu
# with the launcher and the embedded tuned binaries; both join <target>. Each kernel's build also
# writes ${CMAKE_BINARY_DIR}/optiml-kernels/<target>.<name>.json, the build manifest that
# `optiml retune --build-dir` reads (docs/ci.md).
#
# Cache variables: OPTIML_MODE (the environment variable of the same name, read at configure
# time, overrides it; MODE overrides both), OPTIML_CACHE_DIR (empty: the driver's own rules,
# $OPTIML_CACHE_DIR at build time, then $XDG_CACHE_HOME/optiml, then ~/.cache/optiml),
# OPTIML_LLM_BASE_URL, OPTIML_LLM_MODEL, OPTIML_LLM_TOKEN_BUDGET, OPTIML_LLM_REPLAY (the LLM_*
# arguments override them; empty/OFF: the driver reads the environment variables of the same names
# at build time). The API key is never a CMake setting: set OPTIML_LLM_API_KEY in the build's
# environment (docs/llm.md).
# OPTIML_REMOTE_CACHE and OPTIML_REMOTE_CACHE_MODE (empty: the environment variables of the same
# names at build time; REMOTE_CACHE and REMOTE_CACHE_MODE override them). Seed and remote entries
# are used only when signed by a key of <seed>/trusted-keys.txt or a TRUSTED_KEYS file
# (docs/caching.md, "Trust").
#
# Loaded by OptiMLConfig.cmake (find_package) or by OptiML's cmake/CMakeLists.txt (add_subdirectory).
include_guard(GLOBAL)

if(CMAKE_VERSION VERSION_LESS 3.20)
  message(FATAL_ERROR "OptiML needs CMake 3.20 or newer (found ${CMAKE_VERSION}).")
endif()
# Recorded with the function below: depfile paths are relative to the current binary dir.
cmake_policy(SET CMP0116 NEW)

set(OPTIML_MODE "auto" CACHE STRING
    "OptiML mode: auto, cache-only, retune or off (the environment variable OPTIML_MODE overrides it)")
set_property(CACHE OPTIML_MODE PROPERTY STRINGS auto cache-only retune off)
set(OPTIML_REMOTE_CACHE "" CACHE STRING
    "OptiML remote cache URL, Bazel HTTP protocol (empty: $OPTIML_REMOTE_CACHE at build time)")
set(OPTIML_REMOTE_CACHE_MODE "" CACHE STRING
    "OptiML remote cache mode: read or read-write (empty: $OPTIML_REMOTE_CACHE_MODE, else read)")
set(OPTIML_CACHE_DIR "" CACHE PATH
    "OptiML cache directory (empty: $OPTIML_CACHE_DIR at build time, else $XDG_CACHE_HOME/optiml, else ~/.cache/optiml)")
set(OPTIML_LLM_BASE_URL "" CACHE STRING
    "OpenAI-compatible API root for LLM proposals, e.g. http://127.0.0.1:8080/v1 (empty: $OPTIML_LLM_BASE_URL at build time)")
set(OPTIML_LLM_MODEL "" CACHE STRING "LLM model name (empty: $OPTIML_LLM_MODEL at build time)")
set(OPTIML_LLM_TOKEN_BUDGET "" CACHE STRING
    "LLM tokens per tuning, 0 for no limit (empty: $OPTIML_LLM_TOKEN_BUDGET at build time)")
option(OPTIML_LLM_REPLAY "Answer LLM requests only from recorded exchanges (no endpoint)" OFF)

# Reads a non-empty string member of the spec's top-level object, or stops configuration naming
# the file, the field and what is expected.
function(_optiml_spec_string json spec_file field out_var)
  string(JSON type ERROR_VARIABLE error TYPE "${json}" "${field}")
  if(error)
    message(FATAL_ERROR "${spec_file}: ${field}: missing; expected a non-empty string "
                        "(see docs/spec.md)")
  endif()
  if(NOT type STREQUAL "STRING")
    string(TOLOWER "${type}" type)
    message(FATAL_ERROR "${spec_file}: ${field}: is a JSON ${type}; expected a non-empty string")
  endif()
  string(JSON value GET "${json}" "${field}")
  if(value STREQUAL "")
    message(FATAL_ERROR "${spec_file}: ${field}: is empty; expected a non-empty string")
  endif()
  set(${out_var} "${value}" PARENT_SCOPE)
endfunction()

# CUDA_ARCHITECTURES values ("90", "80-real", "90a-virtual") -> unique numbers ("90;80"), or an
# error for values that name no concrete architecture ("all", "native", OFF).
function(_optiml_normalize_archs target origin fix values out_var)
  set(archs "")
  foreach(value IN LISTS values)
    string(REGEX REPLACE "-(real|virtual)$" "" arch "${value}")
    # Arch-specific suffixes (90a, 100f) tune as the plain architecture.
    string(REGEX REPLACE "^([0-9]+)[a-z]$" "\\1" arch "${arch}")
    if(NOT arch MATCHES "^[0-9]+$")
      message(FATAL_ERROR "optiml_optimize_kernel(${target}): ${origin} is \"${values}\"; OptiML "
                          "needs concrete architectures such as 90 or 80 to tune for (\"${value}\" "
                          "is not one). Fix: ${fix}.")
    endif()
    list(APPEND archs "${arch}")
  endforeach()
  list(REMOVE_DUPLICATES archs)
  if(NOT archs)
    message(FATAL_ERROR "optiml_optimize_kernel(${target}): ${origin} is empty. Fix: ${fix}.")
  endif()
  set(${out_var} "${archs}" PARENT_SCOPE)
endfunction()

# The mode: MODE argument, else $ENV{OPTIML_MODE} (at configure time), else the cache variable.
function(_optiml_resolve_mode target mode_argument out_var)
  if(NOT mode_argument STREQUAL "")
    set(mode "${mode_argument}")
    set(origin "MODE argument")
  elseif(DEFINED ENV{OPTIML_MODE} AND NOT "$ENV{OPTIML_MODE}" STREQUAL "")
    set(mode "$ENV{OPTIML_MODE}")
    set(origin "environment variable OPTIML_MODE")
  else()
    set(mode "${OPTIML_MODE}")
    set(origin "cache variable OPTIML_MODE")
  endif()
  if(NOT mode MATCHES "^(auto|cache-only|retune|off)$")
    message(FATAL_ERROR "optiml_optimize_kernel(${target}): ${origin} is \"${mode}\"; expected "
                        "one of auto, cache-only, retune, off.")
  endif()
  set(${out_var} "${mode}" PARENT_SCOPE)
endfunction()

# Finds the driver: OptiML's own targets when it is part of this build (add_subdirectory or
# FetchContent), the imported OptiML:: targets of find_package otherwise.
function(_optiml_driver_targets target out_driver out_worker)
  get_property(in_tree GLOBAL PROPERTY _OPTIML_IN_TREE)
  if(in_tree)
    set(${out_driver} optiml PARENT_SCOPE)
    set(${out_worker} optiml-worker PARENT_SCOPE)
  elseif(TARGET OptiML::optiml AND TARGET OptiML::optiml-worker AND TARGET OptiML::runtime)
    set(${out_driver} OptiML::optiml PARENT_SCOPE)
    set(${out_worker} OptiML::optiml-worker PARENT_SCOPE)
  else()
    message(FATAL_ERROR "optiml_optimize_kernel(${target}): the OptiML targets are not visible "
                        "here. Fix: call find_package(OptiML CONFIG REQUIRED) in this directory "
                        "or a parent, or add OptiML with add_subdirectory()/FetchContent first.")
  endif()
endfunction()

# A Ninja pool of one for every tuning command, so two tuning runs of one build never time
# kernels at the same time (the driver's file lock covers separate builds).
function(_optiml_define_job_pool)
  get_property(pools GLOBAL PROPERTY JOB_POOLS)
  if(NOT pools MATCHES "(^|;)optiml_tune=")
    set_property(GLOBAL APPEND PROPERTY JOB_POOLS optiml_tune=1)
  endif()
endfunction()

# --- the user's build (its flags and architectures reach the driver) ---
# The driver reads the nvcc command CMake runs for the kernel's file (or for the generated
# launcher that compiles a kernel of device code only) from compile_commands.json, which CMake
# writes at generate time with every generator expression, CMAKE_CUDA_FLAGS(_<CONFIG>),
# COMPILE_OPTIONS, definitions, include folders, CUDA_SEPARABLE_COMPILATION (-rdc=true) and
# CUDA_ARCHITECTURES (native, all and all-major expanded) already resolved: so a value set after
# optiml_optimize_kernel() counts too. The target's EXPORT_COMPILE_COMMANDS is turned on for it;
# a change of the file re-runs the driver (an unchanged key is a cache hit). Other generators
# (Visual Studio, Xcode) write no such file: the kernel is then tuned with OptiML's options only.
# Sets `out_args` (driver arguments; empty when unavailable) and `out_depends`.
function(_optiml_user_build_args target out_args out_depends)
  set(${out_args} "" PARENT_SCOPE)
  set(${out_depends} "" PARENT_SCOPE)
  if(NOT CMAKE_GENERATOR MATCHES "^(Ninja|.* Makefiles)$")
    message(WARNING "optiml_optimize_kernel(${target}): the ${CMAKE_GENERATOR} generator writes no "
                    "compile_commands.json, so OptiML cannot see the target's CUDA flags: the "
                    "kernel is tuned and measured with OptiML's own options. Fix: use the Ninja "
                    "or a Makefile generator.")
    return()
  endif()
  set_property(TARGET ${target} PROPERTY EXPORT_COMPILE_COMMANDS ON)
  set(database "${CMAKE_BINARY_DIR}/compile_commands.json")
  set(${out_args} --compile-commands "${database}" --source-root "${CMAKE_SOURCE_DIR}"
                  --build-root "${CMAKE_BINARY_DIR}" PARENT_SCOPE)
  set(${out_depends} "${database}" PARENT_SCOPE)
endfunction()

function(optiml_optimize_kernel target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "LLM_REPLAY"
                        "SPEC;MODE;BUDGET_EVALUATIONS;BUDGET_SECONDS;LLM_BASE_URL;LLM_MODEL;LLM_TOKEN_BUDGET;REMOTE_CACHE;REMOTE_CACHE_MODE"
                        "ARCHS;CACHE_SEED;TRUSTED_KEYS")
  set(call "optiml_optimize_kernel(${target})")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${call}: unexpected arguments \"${arg_UNPARSED_ARGUMENTS}\"; expected "
                        "SPEC <file> [MODE <mode>] [ARCHS <arch>...] [CACHE_SEED <dir>...] "
                        "[BUDGET_EVALUATIONS <n>] [BUDGET_SECONDS <s>] [LLM_BASE_URL <url>] "
                        "[LLM_MODEL <name>] [LLM_TOKEN_BUDGET <n>] [LLM_REPLAY] [REMOTE_CACHE <url>] "
                        "[REMOTE_CACHE_MODE read|read-write] [TRUSTED_KEYS <file>...].")
  endif()
  if(NOT arg_SPEC)
    message(FATAL_ERROR "${call}: SPEC <file> is required (the kernel's .optiml.json).")
  endif()

  # --- the target ---
  if(NOT TARGET ${target})
    message(FATAL_ERROR "${call}: there is no target named \"${target}\"; create it first "
                        "(add_executable or add_library).")
  endif()
  get_target_property(aliased ${target} ALIASED_TARGET)
  if(aliased)
    set(target "${aliased}")
  endif()
  get_target_property(type ${target} TYPE)
  get_target_property(imported ${target} IMPORTED)
  if(imported)
    set(type "imported ${type}")
  endif()
  if(NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
    message(FATAL_ERROR "${call}: \"${target}\" is an ${type} target; OptiML adds generated "
                        "sources, so it needs an executable or a (non-interface) library built by "
                        "this project.")
  endif()
  get_target_property(target_dir ${target} SOURCE_DIR)
  if(NOT target_dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
    # Custom command outputs only reach targets of the same directory.
    message(FATAL_ERROR "${call}: call it in the directory that defines \"${target}\" "
                        "(${target_dir}), not in ${CMAKE_CURRENT_SOURCE_DIR}.")
  endif()
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "CUDA" IN_LIST languages)
    message(FATAL_ERROR "${call}: the CUDA language is not enabled, and the generated launcher is "
                        "CUDA code. Fix: project(<name> LANGUAGES CXX CUDA) or enable_language(CUDA).")
  endif()

  # --- the spec ---
  cmake_path(ABSOLUTE_PATH arg_SPEC BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE
             OUTPUT_VARIABLE spec)
  if(NOT EXISTS "${spec}" OR IS_DIRECTORY "${spec}")
    message(FATAL_ERROR "${call}: SPEC file ${spec} does not exist.")
  endif()
  file(READ "${spec}" json)
  string(JSON top_type ERROR_VARIABLE json_error TYPE "${json}")
  if(json_error)
    message(FATAL_ERROR "${spec}: not valid JSON (${json_error}); expected a JSON object "
                        "(see docs/spec.md).")
  endif()
  if(NOT top_type STREQUAL "OBJECT")
    string(TOLOWER "${top_type}" top_type)
    message(FATAL_ERROR "${spec}: the top level is a JSON ${top_type}; expected a JSON object.")
  endif()
  _optiml_spec_string("${json}" "${spec}" name name)
  if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "${spec}: name: \"${name}\" is not a C++ identifier; expected letters, "
                        "digits and underscores, not starting with a digit.")
  endif()
  _optiml_spec_string("${json}" "${spec}" source source_as_written)
  if(IS_ABSOLUTE "${source_as_written}")
    message(FATAL_ERROR "${spec}: source: \"${source_as_written}\" is absolute; expected a path "
                        "relative to the spec file (the cache key must not depend on where the "
                        "project lives).")
  endif()
  cmake_path(GET spec PARENT_PATH spec_dir)
  cmake_path(ABSOLUTE_PATH source_as_written BASE_DIRECTORY "${spec_dir}" NORMALIZE
             OUTPUT_VARIABLE source)
  if(NOT EXISTS "${source}" OR IS_DIRECTORY "${source}")
    message(FATAL_ERROR "${spec}: source: \"${source_as_written}\" resolves to ${source}, which "
                        "does not exist; expected the kernel's source file, relative to the spec.")
  endif()
  # Editing the spec (its name or source) reconfigures.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${spec}")

  get_target_property(kernels ${target} _OPTIML_KERNELS)
  if(kernels AND name IN_LIST kernels)
    message(FATAL_ERROR "${call}: a kernel named \"${name}\" is already optimized for this target; "
                        "each spec's \"name\" must be unique per target (${spec}).")
  endif()

  # --- architectures, mode, budget ---
  _optiml_user_build_args(${target} user_build_args user_build_depends)
  set(archs_args "")
  set(sm_list "")
  if(NOT arg_ARCHS AND user_build_args)
    # The target's own architectures, as its compile command lists them at build time.
    set(sm_list "the CUDA architectures of ${target}")
  elseif(arg_ARCHS)
    _optiml_normalize_archs(${target} "ARCHS" "pass architecture numbers, e.g. ARCHS 90 80"
                            "${arg_ARCHS}" archs)
  else()
    get_target_property(target_archs ${target} CUDA_ARCHITECTURES)
    if(NOT target_archs)
      set(target_archs "")
    endif()
    _optiml_normalize_archs(${target} "the CUDA_ARCHITECTURES of ${target}"
                            "set CUDA_ARCHITECTURES on ${target} (e.g. 90) or pass ARCHS"
                            "${target_archs}" archs)
  endif()
  if(NOT sm_list)
    list(JOIN archs "," archs_csv)
    set(archs_args --archs "${archs_csv}")
    list(TRANSFORM archs PREPEND "sm_" OUTPUT_VARIABLE sm_names)
    list(JOIN sm_names ", " sm_list)
  endif()
  _optiml_resolve_mode(${target} "${arg_MODE}" mode)

  set(budget_args "")
  if(DEFINED arg_BUDGET_EVALUATIONS)
    if(NOT arg_BUDGET_EVALUATIONS MATCHES "^[1-9][0-9]*$")
      message(FATAL_ERROR "${call}: BUDGET_EVALUATIONS is \"${arg_BUDGET_EVALUATIONS}\"; "
                          "expected a positive integer.")
    endif()
    list(APPEND budget_args --budget-evaluations ${arg_BUDGET_EVALUATIONS})
  endif()
  if(DEFINED arg_BUDGET_SECONDS)
    if(NOT arg_BUDGET_SECONDS MATCHES "^[0-9]*\\.?[0-9]*$" OR NOT arg_BUDGET_SECONDS MATCHES "[1-9]")
      message(FATAL_ERROR "${call}: BUDGET_SECONDS is \"${arg_BUDGET_SECONDS}\"; expected a "
                          "positive number of seconds.")
    endif()
    list(APPEND budget_args --budget-seconds ${arg_BUDGET_SECONDS})
  endif()

  # --- the LLM (docs/llm.md): arguments, else the cache variables, else the build's environment ---
  set(llm_args "")
  foreach(setting IN ITEMS BASE_URL MODEL TOKEN_BUDGET)
    set(value "${arg_LLM_${setting}}")
    if(value STREQUAL "")
      set(value "${OPTIML_LLM_${setting}}")
    endif()
    if(NOT value STREQUAL "")
      string(TOLOWER "${setting}" flag)
      string(REPLACE "_" "-" flag "${flag}")
      list(APPEND llm_args "--llm-${flag}" "${value}")
    endif()
  endforeach()
  if(DEFINED arg_LLM_TOKEN_BUDGET AND NOT arg_LLM_TOKEN_BUDGET MATCHES "^[0-9]+$")
    message(FATAL_ERROR "${call}: LLM_TOKEN_BUDGET is \"${arg_LLM_TOKEN_BUDGET}\"; expected a "
                        "whole number of tokens (0: no limit).")
  endif()
  if(arg_LLM_REPLAY OR OPTIML_LLM_REPLAY)
    list(APPEND llm_args --llm-replay)
  endif()

  # --- seeds and cache ---
  set(seed_args "")
  set(seed_manifests "")
  foreach(seed IN LISTS arg_CACHE_SEED)
    cmake_path(ABSOLUTE_PATH seed BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE)
    if(NOT IS_DIRECTORY "${seed}")
      # Not fatal: a project may name its seed before the first export creates it.
      message(WARNING "${call}: CACHE_SEED directory ${seed} does not exist; until "
                      "`optiml cache export --to ${seed}` creates it, no seed entries are used.")
    endif()
    list(APPEND seed_args --seed "${seed}")
    # New or changed seed entries (e.g. after a pull) re-run the driver.
    file(GLOB manifests CONFIGURE_DEPENDS "${seed}/entries/*/*/manifest.json")
    list(APPEND seed_manifests ${manifests})
  endforeach()
  set(cache_args "")
  if(NOT OPTIML_CACHE_DIR STREQUAL "")
    cmake_path(ABSOLUTE_PATH OPTIML_CACHE_DIR BASE_DIRECTORY "${CMAKE_BINARY_DIR}" NORMALIZE
               OUTPUT_VARIABLE cache_dir)
    set(cache_args --cache-dir "${cache_dir}")
  endif()

  # --- the remote cache and trusted keys (URL and credentials are checked by the driver) ---
  set(remote_args "")
  foreach(setting IN ITEMS REMOTE_CACHE REMOTE_CACHE_MODE)
    set(value "${arg_${setting}}")
    if(value STREQUAL "")
      set(value "${OPTIML_${setting}}")
    endif()
    if(setting STREQUAL "REMOTE_CACHE_MODE" AND NOT value MATCHES "^(|read|read-write)$")
      message(FATAL_ERROR "${call}: REMOTE_CACHE_MODE is \"${value}\"; expected read (never "
                          "upload) or read-write (CI runners that tune and publish).")
    endif()
    if(NOT value STREQUAL "")
      string(TOLOWER "--${setting}" option)
      string(REPLACE "_" "-" option "${option}")
      list(APPEND remote_args ${option} "${value}")
    endif()
  endforeach()
  foreach(keys_file IN LISTS arg_TRUSTED_KEYS)
    cmake_path(ABSOLUTE_PATH keys_file BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE)
    list(APPEND remote_args --trusted-keys "${keys_file}")
  endforeach()

  # A spec's comparison function (check.compare) and input generators are compiled with the
  # project's C++ compiler;
  # without the CXX language the driver's default, `c++`, is used.
  set(compiler_args "")
  if(CMAKE_CXX_COMPILER)
    set(compiler_args --host-compiler "${CMAKE_CXX_COMPILER}")
  endif()

  # --- the build rule ---
  _optiml_driver_targets(${target} driver worker)
  _optiml_define_job_pool()
  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/optiml/${target}")
  set(header "${out_dir}/include/optiml/${name}.h")
  set(launcher "${out_dir}/optiml_${name}.cu")
  set(depfile "${out_dir}/${name}.d")
  # This kernel's file of the build manifest, which `optiml retune --build-dir` reads.
  set(build_manifest "${CMAKE_BINARY_DIR}/optiml-kernels/${target}.${name}.json")
  # The launcher comes first: Ninja checks that the depfile names the first output, and the
  # driver's depfile names the launcher.
  add_custom_command(
    OUTPUT "${launcher}" "${header}"
    COMMAND ${driver} build --spec "${spec}" ${archs_args} --mode "${mode}"
            --out "${out_dir}" --depfile "${depfile}" ${cache_args} ${seed_args} ${budget_args}
            ${compiler_args} --manifest "${build_manifest}" ${llm_args} ${remote_args}
            ${user_build_args}
    DEPENDS "${spec}" "${source}" ${driver} ${worker} ${seed_manifests} ${user_build_depends}
    DEPFILE "${depfile}"
    JOB_POOL optiml_tune
    COMMENT "OptiML: kernel ${name} of ${target} for ${sm_list} (mode ${mode})"
    VERBATIM)

  target_sources(${target} PRIVATE "${launcher}" "${header}")
  target_include_directories(${target} PRIVATE "${out_dir}/include")
  if(NOT kernels)
    # Through the properties rather than target_link_libraries(), so that a target linked with
    # the keyword-less signature elsewhere still works. Static and object libraries pass it on.
    set_property(TARGET ${target} APPEND PROPERTY LINK_LIBRARIES OptiML::runtime)
    if(type MATCHES "^(STATIC|OBJECT)_LIBRARY$")
      set_property(TARGET ${target} APPEND PROPERTY INTERFACE_LINK_LIBRARIES
                                                   "$<LINK_ONLY:OptiML::runtime>")
    endif()
    set(kernels "")
  endif()
  list(APPEND kernels "${name}")
  set_property(TARGET ${target} PROPERTY _OPTIML_KERNELS "${kernels}")
endfunction()
