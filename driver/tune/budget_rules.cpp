#include "driver/tune/budget_rules.h"

#include <cstdlib>

#include "driver/search/budget_fit.h"
#include "driver/tune/detail/transform_tuning.h"
#include "driver/tune/tuning.h"

namespace optiml::tune {

void apply_budget_overrides(spec::Budget& budget,
                            std::initializer_list<BudgetOverrides> most_specific_first) {
    // Applied least specific first, so that the most specific is the one left standing.
    for (auto it = std::rbegin(most_specific_first); it != std::rend(most_specific_first); ++it) {
        if (it->evaluations) budget.evaluations = *it->evaluations;
        if (it->seconds) budget.seconds = *it->seconds;
        if (it->strategy) budget.strategy = *it->strategy;
    }
}

search::Budget search_budget(const spec::Budget& budget, std::size_t valid) {
    search::Budget out = budget.evaluations ? search::Budget{} : search::fitted_budget(valid);
    if (budget.evaluations) out.evaluations = *budget.evaluations;
    out.seconds = budget.seconds;
    out.strategy = budget.strategy;
    // A fitted budget measures the parameter space; the tree that follows gets its own share.
    if (out.stop_when_converged && transformations_enabled(out))
        out.evaluations += kFittedTreeEvaluations;
    return out;
}

search::Budget search_budget(const spec::Spec& spec) {
    return search_budget(spec.budget, tuning_space(spec).enumerate_valid().size());
}

BudgetOverrides budget_from_environment() {
    BudgetOverrides overrides;
    if (const char* env = std::getenv("OPTIML_BUDGET_EVALUATIONS"); env && std::atoi(env) > 0)
        overrides.evaluations = std::atoi(env);
    if (const char* env = std::getenv("OPTIML_BUDGET_SECONDS"); env && std::atof(env) > 0)
        overrides.seconds = std::atof(env);
    return overrides;
}

}  // namespace optiml::tune
