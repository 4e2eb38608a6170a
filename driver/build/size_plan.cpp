// size_plan(): the manifest's "sizes" record as the launcher's dispatch by problem size.
#include "driver/build/detail/size_plan.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <vector>

#include "driver/base/format.h"
#include "driver/search/candidate_json.h"
#include "driver/search/search.h"

namespace optiml::build {
namespace {

// A problem of the record, as the tuning wrote it (its scalars).
spec::ProblemSize read_problem(const nlohmann::json& problem) {
    spec::ProblemSize size;
    for (const auto& [name, value] : problem.items())
        size.scalars[name] = value.get<std::int64_t>();
    return size;
}

std::vector<std::string> names_of(const spec::ProblemSize& problem) {
    std::vector<std::string> names;
    for (const auto& [name, value] : problem.scalars) names.push_back(name);
    return names;
}

// The variant that runs `row` of the matrix: its parameters, its images by the record's file
// names; false where the entry lacks them.
bool sized_variant(const cache::Entry& entry, const nlohmann::json& sizes, std::size_t row,
                   codegen::Variant& variant) {
    const nlohmann::json& images = sizes.at("dispatch").at("images");
    const std::string name = std::to_string(row);
    if (!images.contains(name)) return false;
    const nlohmann::json& files = images.at(name);
    const auto file = [&](const char* role) -> std::string {
        const auto found = entry.files.find(files.at(role).get<std::string>());
        return found == entry.files.end() ? std::string{} : found->second;
    };
    variant.winner = search::read_candidate(sizes.at("variants").at(row));
    variant.cubin = file("cubin");
    variant.ptx = file("ptx");
    variant.lowered_name = files.value("lowered_name", variant.lowered_name);
    variant.summary = "by size: row " + name + " of the generalisation matrix";
    return !variant.cubin.empty() || !variant.ptx.empty();
}

codegen::SizeDispatchPlan read_plan(const cache::Entry& entry, const nlohmann::json& sizes,
                                    const codegen::Variant& winner) {
    codegen::SizeDispatchPlan plan;
    if (!sizes.is_object() || !sizes.contains("dispatch")) return plan;
    const nlohmann::json& problems = sizes.at("problems");
    const spec::ProblemSize first = read_problem(problems.at(0));
    plan.arguments = names_of(first);
    plan.smallest = spec::dispatch_size(first);
    for (const nlohmann::json& record : problems) {
        const spec::ProblemSize problem = read_problem(record);
        if (names_of(problem) != plan.arguments) return {};  // no one axis: no dispatch
        plan.largest = spec::dispatch_size(problem);
    }
    std::map<std::size_t, int> index_of_row;  // matrix row -> index in plan.variants
    for (const nlohmann::json& range : sizes.at("dispatch").at("ranges")) {
        const std::size_t row = range.at("variant").get<std::size_t>();
        codegen::SizeDispatchPlan::Range out;
        out.below = range.at("below").is_null() ? std::numeric_limits<double>::infinity()
                                                : range.at("below").get<double>();
        if (row != 0 && !index_of_row.contains(row)) {
            codegen::Variant variant = winner;
            variant.by_size = {};
            if (sized_variant(entry, sizes, row, variant)) {
                index_of_row[row] = static_cast<int>(plan.variants.size());
                plan.variants.push_back(std::move(variant));
            } else {
                index_of_row[row] = -1;  // no images: the winner runs its range
            }
        }
        out.variant = row == 0 ? -1 : index_of_row.at(row);
        // Adjacent ranges of one variant are one range: the later boundary.
        if (!plan.ranges.empty() && plan.ranges.back().variant == out.variant)
            plan.ranges.back().below = out.below;
        else
            plan.ranges.push_back(out);
    }
    // The winner at every size: the launcher it always had. Another single variant is a plan of
    // one range (the dispatch found it within 3% of every problem's best; the winner was not).
    if (plan.ranges.size() == 1 && plan.ranges.front().variant < 0) return {};
    return plan;
}

}  // namespace

codegen::SizeDispatchPlan size_plan(const cache::Entry& entry, const cache::EntryManifest& manifest,
                                    const codegen::Variant& winner, std::string& note) {
    try {
        return read_plan(entry, manifest.sizes, winner);
    } catch (const nlohmann::json::exception& error) {
        note = manifest.arch + ": the entry's \"sizes\" record is malformed (" + error.what() +
               "); no dispatch by size (tune it again: OPTIML_MODE=retune)";
        return {};
    }
}

std::string describe_plan(const codegen::SizeDispatchPlan& plan) {
    std::string text;
    for (const codegen::SizeDispatchPlan::Range& range : plan.ranges) {
        const std::string runs =
            range.variant < 0 ? "the winner"
                              : search::format_candidate(
                                    plan.variants[static_cast<std::size_t>(range.variant)].winner);
        text += (text.empty() ? "" : ", ") + runs +
                (std::isinf(range.below) ? (text.empty() ? " at every size" : " above")
                                         : " below " + base::format::number(range.below));
    }
    return "by size (" + codegen::size_axis_text(plan) + "): " + text;
}

}  // namespace optiml::build
