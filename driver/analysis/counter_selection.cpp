#include "driver/analysis/counter_selection.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>

#include "driver/analysis/analysis_error.h"
#include "driver/analysis/detail/least_squares.h"
#include "driver/base/format.h"

namespace optiml::analysis {

namespace {

constexpr std::size_t kMaxCounters = 10;
// Below this |correlation| with the residual a counter explains nothing more.
constexpr double kMinCorrelation = 1e-9;

[[noreturn]] void reject(const std::string& field, const std::string& what,
                         const std::string& expected) {
    throw AnalysisError("counter table: " + field + ": " + what + "; expected " + expected);
}

void validate(const CounterTable& table, const SelectionOptions& options) {
    std::set<std::string> seen;
    for (std::size_t c = 0; c < table.counters.size(); ++c) {
        const std::string& name = table.counters[c];
        const std::string field = "counters[" + std::to_string(c) + "]";
        if (name.empty()) reject(field, "is empty", "a counter name such as dram__bytes_read.sum");
        if (!seen.insert(name).second)
            reject(field, "\"" + name + "\" appears twice", "unique counter names");
    }
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        if (table.rows[r].size() != table.counters.size()) {
            reject("rows[" + std::to_string(r) + "]",
                   "has " + std::to_string(table.rows[r].size()) + " values for " +
                       std::to_string(table.counters.size()) + " counters",
                   "one value per counter (NaN for a counter not measured)");
        }
    }
    if (table.runtime_s.size() != table.rows.size()) {
        reject("runtime_s",
               "has " + std::to_string(table.runtime_s.size()) + " values for " +
                   std::to_string(table.rows.size()) + " rows",
               "one runtime per evaluated variant");
    }
    if (options.k == 0 || options.k > kMaxCounters) {
        reject("options.k", "is " + std::to_string(options.k),
               "1 to " + std::to_string(kMaxCounters));
    }
    if (options.runs == 0) reject("options.runs", "is 0", "at least 1 run");
    if (options.top_candidates == 0) reject("options.top_candidates", "is 0", "at least 1");
    if (!(options.min_relative_correlation >= 0.0 && options.min_relative_correlation <= 1.0)) {
        reject("options.min_relative_correlation",
               "is " + base::format::number(options.min_relative_correlation),
               "a fraction in [0, 1]");
    }
    if (!(options.max_missing_fraction >= 0.0 && options.max_missing_fraction <= 1.0)) {
        reject("options.max_missing_fraction",
               "is " + base::format::number(options.max_missing_fraction), "a fraction in [0, 1]");
    }
}

bool nearly_constant(double deviation, double mean) {
    return !(deviation > 1e-12 * std::max(1.0, std::fabs(mean)));
}

// The standardized problem: usable counters as columns, runtime as target, over the kept rows.
struct Problem {
    std::vector<std::string> names;
    std::vector<std::vector<double>> columns;
    std::vector<double> norms;
    std::vector<double> target;
    bool target_varies = false;
};

Problem standardize(const CounterTable& table, const SelectionOptions& options,
                    CounterSelection& selection) {
    std::vector<std::size_t> kept_rows;
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        if (std::isfinite(table.runtime_s[r])) kept_rows.push_back(r);
    }
    const std::size_t dropped_rows = table.rows.size() - kept_rows.size();
    if (dropped_rows > 0) {
        selection.note += std::to_string(dropped_rows) + " variant(s) without a runtime left out. ";
    }
    const auto n = static_cast<double>(kept_rows.size());
    Problem problem;
    selection.variants = kept_rows.size();
    if (kept_rows.empty()) return problem;

    double mean = 0.0;
    for (std::size_t r : kept_rows) mean += table.runtime_s[r];
    mean /= n;
    double variance = 0.0;
    for (std::size_t r : kept_rows)
        variance += (table.runtime_s[r] - mean) * (table.runtime_s[r] - mean);
    const double deviation = std::sqrt(variance / n);
    problem.target_varies = !nearly_constant(deviation, mean);
    for (std::size_t r : kept_rows) {
        problem.target.push_back(problem.target_varies ? (table.runtime_s[r] - mean) / deviation
                                                       : 0.0);
    }

    for (std::size_t c = 0; c < table.counters.size(); ++c) {
        double sum = 0.0;
        std::size_t present = 0;
        for (std::size_t r : kept_rows) {
            if (std::isfinite(table.rows[r][c])) {
                sum += table.rows[r][c];
                ++present;
            }
        }
        const auto missing = static_cast<double>(kept_rows.size() - present);
        if (present == 0 || missing > options.max_missing_fraction * n) {
            selection.dropped.push_back({table.counters[c], "mostly missing"});
            continue;
        }
        const double column_mean = sum / static_cast<double>(present);
        double column_variance = 0.0;
        for (std::size_t r : kept_rows) {
            const double value = table.rows[r][c];
            if (std::isfinite(value))
                column_variance += (value - column_mean) * (value - column_mean);
        }
        const double column_deviation = std::sqrt(column_variance / static_cast<double>(present));
        if (nearly_constant(column_deviation, column_mean)) {
            selection.dropped.push_back({table.counters[c], "constant"});
            continue;
        }
        std::vector<double> column;
        column.reserve(kept_rows.size());
        for (std::size_t r : kept_rows) {
            const double value = table.rows[r][c];
            column.push_back(std::isfinite(value) ? (value - column_mean) / column_deviation : 0.0);
        }
        double norm = 0.0;
        for (double value : column) norm += value * value;
        problem.names.push_back(table.counters[c]);
        problem.columns.push_back(std::move(column));
        problem.norms.push_back(std::sqrt(norm));
    }
    return problem;
}

std::vector<const std::vector<double>*> columns_of(const Problem& problem,
                                                   const std::vector<std::size_t>& picks) {
    std::vector<const std::vector<double>*> columns;
    for (std::size_t pick : picks) columns.push_back(&problem.columns[pick]);
    return columns;
}

// One forward-selection run; `rng` null means always take the best candidate.
std::vector<std::size_t> select_once(const Problem& problem, std::size_t k,
                                     const SelectionOptions& options, std::mt19937_64* rng) {
    std::vector<std::size_t> chosen;
    std::vector<bool> unavailable(problem.columns.size(), false);
    std::vector<double> residual = problem.target;
    while (chosen.size() < k) {
        double residual_norm = 0.0;
        for (double value : residual) residual_norm += value * value;
        residual_norm = std::sqrt(residual_norm);
        if (residual_norm == 0.0) break;

        std::vector<std::pair<double, std::size_t>> ranked;
        for (std::size_t c = 0; c < problem.columns.size(); ++c) {
            if (unavailable[c]) continue;
            double product = 0.0;
            for (std::size_t r = 0; r < residual.size(); ++r)
                product += problem.columns[c][r] * residual[r];
            const double correlation = std::fabs(product) / (problem.norms[c] * residual_norm);
            if (correlation > kMinCorrelation) ranked.emplace_back(correlation, c);
        }
        if (ranked.empty()) break;
        std::stable_sort(ranked.begin(), ranked.end(),
                         [](const auto& a, const auto& b) { return a.first > b.first; });
        const double cutoff = options.min_relative_correlation * ranked.front().first;
        std::size_t pool = 1;
        while (pool < std::min(options.top_candidates, ranked.size()) &&
               ranked[pool].first >= cutoff) {
            ++pool;
        }
        const std::size_t pick = ranked[rng ? static_cast<std::size_t>((*rng)() % pool) : 0].second;

        std::vector<std::size_t> trial = chosen;
        trial.push_back(pick);
        const auto fit = fit_least_squares(columns_of(problem, trial), problem.target);
        unavailable[pick] = true;
        if (!fit) continue;  // adds nothing the picks so far do not already span
        chosen = std::move(trial);
        residual = fit->residual;
    }
    return chosen;
}

double r_squared_of(const Problem& problem, const std::vector<std::size_t>& picks) {
    if (picks.empty()) return 0.0;
    const auto fit = fit_least_squares(columns_of(problem, picks), problem.target);
    double total = 0.0;
    for (double value : problem.target) total += value * value;
    return fit ? 1.0 - fit->residual_sum_of_squares / total : 0.0;
}

}  // namespace

CounterSelection select_counters(const CounterTable& table, const SelectionOptions& options) {
    validate(table, options);
    CounterSelection selection;
    selection.runs = options.runs;
    const Problem problem = standardize(table, options, selection);
    const std::size_t variants = selection.variants;
    if (variants < 3) {
        selection.note += "Counter selection needs at least 3 variants with a runtime; got " +
                          std::to_string(variants) + ".";
        return selection;
    }
    if (!problem.target_varies) {
        selection.note += "Runtime is the same for every variant; there is nothing to explain.";
        return selection;
    }
    if (problem.columns.empty()) {
        selection.note += "No counter varies across the variants.";
        return selection;
    }
    const std::size_t k = std::min({options.k, problem.columns.size(), variants - 2});

    std::vector<std::size_t> picked_by_runs(problem.columns.size(), 0);
    std::vector<std::size_t> greedy_rank(problem.columns.size(),
                                         std::numeric_limits<std::size_t>::max());
    for (std::size_t run = 0; run < options.runs; ++run) {
        std::mt19937_64 rng(options.seed + run);
        const std::vector<std::size_t> picks =
            select_once(problem, k, options, run == 0 ? nullptr : &rng);
        for (std::size_t i = 0; i < picks.size(); ++i) {
            ++picked_by_runs[picks[i]];
            if (run == 0) greedy_rank[picks[i]] = i;
        }
    }

    std::vector<std::size_t> order(problem.columns.size());
    for (std::size_t c = 0; c < order.size(); ++c) order[c] = c;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (picked_by_runs[a] != picked_by_runs[b]) return picked_by_runs[a] > picked_by_runs[b];
        return greedy_rank[a] < greedy_rank[b];
    });
    std::vector<std::size_t> final_set;
    for (std::size_t c : order) {
        if (final_set.size() == k || picked_by_runs[c] == 0) break;
        std::vector<std::size_t> trial = final_set;
        trial.push_back(c);
        if (fit_least_squares(columns_of(problem, trial), problem.target))
            final_set = std::move(trial);
    }
    if (final_set.empty()) {
        selection.note += "No counter correlates with runtime.";
        return selection;
    }

    const auto fit = fit_least_squares(columns_of(problem, final_set), problem.target);
    selection.r_squared = r_squared_of(problem, final_set);
    for (std::size_t i = 0; i < final_set.size(); ++i) {
        std::vector<std::size_t> without = final_set;
        without.erase(without.begin() + static_cast<std::ptrdiff_t>(i));
        const std::size_t c = final_set[i];
        const double coefficient = fit->coefficients[i];
        SelectedCounter counter;
        counter.id = "counter-" + std::to_string(i + 1);
        counter.name = problem.names[c];
        counter.coefficient = coefficient;
        counter.sign = coefficient > 0.0 ? 1 : (coefficient < 0.0 ? -1 : 0);
        counter.frequency =
            static_cast<double>(picked_by_runs[c]) / static_cast<double>(options.runs);
        counter.unique_r_squared =
            std::max(0.0, selection.r_squared - r_squared_of(problem, without));
        counter.description = describe_counter(counter.name);
        selection.counters.push_back(std::move(counter));
    }
    if (final_set.size() < options.k) {
        selection.note += "Chose " + std::to_string(final_set.size()) + " of the " +
                          std::to_string(options.k) +
                          " counters asked for: " + std::to_string(problem.columns.size()) +
                          " usable counter(s), " + std::to_string(variants) +
                          " variants (at most variants - 2 counters are fitted).";
    }
    while (!selection.note.empty() && selection.note.back() == ' ') selection.note.pop_back();
    return selection;
}

}  // namespace optiml::analysis
