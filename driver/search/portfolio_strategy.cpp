// Several strategies taking turns over one pool: each proposal comes from the next member in
// turn (or the one after, when a member has nothing left), and every member observes every
// outcome, so each searches with all that was measured. No single strategy was best on every
// recorded space (bench/search_efficiency); taking turns costs each at most a factor of the
// members' count where it is best, and lets the other recover where it is not.
//
// Reserve members take turns only while the search has stalled: no new best at least 1% faster
// than the last such gain (budget_fit.h's measure of progress) in the last `stall_after`
// outcomes. They observe everything all along, so they start from the best configuration found.
// A model that locks onto one region of a large space stalls for hundreds of evaluations there;
// a reserve that needs no model walks out of it, and where the model keeps improving the reserve
// costs nothing.
#include "driver/search/budget_fit.h"
#include "driver/search/detail/strategies.h"

namespace optiml::search {
namespace {

class Portfolio : public Strategy {
  public:
    Portfolio(std::vector<std::unique_ptr<Strategy>> members,
              std::vector<std::unique_ptr<Strategy>> reserve, std::size_t stall_after)
        : members_(std::move(members)),
          reserve_(std::move(reserve)),
          progress_(stall_after, /*primed=*/true) {}

    std::string name() const override {
        std::string text;
        for (const auto* list : {&members_, &reserve_})
            for (const auto& member : *list) text += (text.empty() ? "" : "+") + member->name();
        return text;
    }

    std::vector<Config> propose(std::size_t n) override {
        const std::size_t active = members_.size() + (stalled() ? reserve_.size() : 0);
        std::vector<Config> out;
        std::size_t idle = 0;  // members in a row that had nothing to propose
        while (out.size() < n && idle < active) {
            std::vector<Config> one = member(turn_ % active).propose(1);
            ++turn_;
            if (one.empty()) {
                ++idle;
                continue;
            }
            idle = 0;
            out.push_back(std::move(one.front()));
        }
        return out;
    }

    void observe(const Config& config, const Outcome& outcome) override {
        progress_.observe(outcome.ok, outcome.median_ms);
        for (const auto* list : {&members_, &reserve_})
            for (const auto& member : *list) member->observe(config, outcome);
    }

  private:
    bool stalled() const { return !reserve_.empty() && progress_.converged(); }
    Strategy& member(std::size_t i) {
        return i < members_.size() ? *members_[i] : *reserve_[i - members_.size()];
    }

    std::vector<std::unique_ptr<Strategy>> members_;
    std::vector<std::unique_ptr<Strategy>> reserve_;
    Convergence progress_;
    std::size_t turn_ = 0;
};

}  // namespace

std::unique_ptr<Strategy> make_portfolio(std::vector<std::unique_ptr<Strategy>> members,
                                         std::vector<std::unique_ptr<Strategy>> reserve,
                                         std::size_t stall_after) {
    return std::make_unique<Portfolio>(std::move(members), std::move(reserve), stall_after);
}

}  // namespace optiml::search
