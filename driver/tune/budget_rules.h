// Which budget a tuning runs with. Each command gives its overrides most specific first: `optiml
// build` its flags (CMake's BUDGET_*), then $OPTIML_BUDGET_* (a CI job that wants a quick tune
// everywhere); `optiml retune` its flags, then those the build recorded; `optiml tune` its flags.
// The first that sets a field wins; a field none sets keeps the spec's.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>

#include "driver/search/search.h"
#include "driver/spec/spec.h"

namespace optiml::tune {

struct BudgetOverrides {
    std::optional<int> evaluations;
    std::optional<double> seconds;
    std::optional<std::string> strategy;
};

void apply_budget_overrides(spec::Budget& budget,
                            std::initializer_list<BudgetOverrides> most_specific_first);

// $OPTIML_BUDGET_EVALUATIONS and $OPTIML_BUDGET_SECONDS, where set to a positive number.
BudgetOverrides budget_from_environment();

// The search's budget: the spec's evaluations where it names them; where it does not ("auto"),
// as many as fit a space of `valid` configurations (search/budget_fit.h), and the search stops
// once it has converged.
search::Budget search_budget(const spec::Budget& budget, std::size_t valid);
// The same over the spec's own tuning space.
search::Budget search_budget(const spec::Spec& spec);

}  // namespace optiml::tune
