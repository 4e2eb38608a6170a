// What of a CUDA source file can change the device code compiled from it: the text with the
// bodies of host-only functions left out, and the identifiers that text (directives included)
// names. The cache key hashes the first and keeps only the build's -D/-U that the second names, so
// an edit of main() or a define the device code never reads does not split the cache
// (docs/caching.md, "What the device code reads").
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace optiml::source {

// The macros `sources` define: `qualifiers` those whose replacement names __global__, __device__
// or __host__ (directly or through another such macro), a function declared with one may be device
// code; `others` the rest.
struct SeenMacros {
    std::set<std::string> qualifiers;
    std::set<std::string> others;
};
SeenMacros seen_macros(const std::vector<std::string_view>& sources);

// `source` with the body of every host-only function at namespace scope replaced by "{}" (the
// directives it held kept, in order). A function is host-only when neither its declaration nor its
// body names __global__, __device__, constexpr, consteval, a qualifier macro, or a name that may
// be a macro `macros` does not hold (a reserved name, or an all-capitals one, other than the
// host-side spellings the toolkit documents); anything else, class bodies and initializers
// included, is kept byte for byte. A file with no host-only function comes back unchanged.
std::string device_relevant_text(std::string_view source, const SeenMacros& macros);

// What nvcc needs of `source` to compile its device code: the host-only functions of
// device_relevant_text left out whole, declaration and body, their lines left blank (every other
// line keeps its number, for line info and diagnostics), and the #include lines of host-only
// standard headers (<iostream>, <vector>, <random>, ...) left empty. `host_functions` counts the
// functions left out, `headers` names the headers left out, in order.
struct DeviceOnlyText {
    std::string text;
    std::size_t host_functions = 0;
    std::vector<std::string> headers;
};
DeviceOnlyText device_only_text(std::string_view source, const SeenMacros& macros);

// device_only_text's text as NVRTC compiles it, which opens no standard header: the #include lines
// of <cstdio>, <stdio.h>, <cassert> and <assert.h>, whose device functions (printf, assert) NVRTC
// declares itself, left empty too, and those of the files `also` names as written
// ("helper_cuda.h"): headers of host code that NVRTC cannot open (tune/device_only_source.h).
std::string nvrtc_device_text(std::string_view device_only,
                              const std::vector<std::string>& also = {});

// The files `text`'s #include lines name, as written, in order.
std::vector<std::string> included_files(std::string_view text);

// Every identifier `text` names, in code and in preprocessor directives (#if FOO, #ifdef NDEBUG).
std::set<std::string> named_identifiers(std::string_view text);

}  // namespace optiml::source
