// The launcher's dispatch by problem size, read from a cache entry: the ranges the tuning across
// the spec's problems chose (the manifest's "sizes", tune/size_tuning.h) and the images of the
// variants that run them.
#pragma once

#include <string>

#include "cache/entry_manifest.h"
#include "cache/store.h"
#include "driver/codegen/launcher.h"

namespace optiml::build {

// `winner`: the entry's shipped variant (row 0 of the matrix). No ranges where the entry has no
// dispatch (a spec without problems, an entry from before, the winner at every size), or where
// the problems do not all set the same arguments; a range whose variant's images the entry lacks
// runs the winner. A malformed record is no dispatch, said in `note`.
codegen::SizeDispatchPlan size_plan(const cache::Entry& entry, const cache::EntryManifest& manifest,
                                    const codegen::Variant& winner, std::string& note);

// "by size (n): block_size_x=64 below 1.31e+05, the winner below 4.19e+06, block_size_x=256
// above" (each variant as search::format_candidate writes it): the build line of a plan.
std::string describe_plan(const codegen::SizeDispatchPlan& plan);

}  // namespace optiml::build
