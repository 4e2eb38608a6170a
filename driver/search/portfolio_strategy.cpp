// Several strategies taking turns over one pool: each proposal comes from the next member in
// turn (or the one after, when a member has nothing left), and every member observes every
// outcome, so each searches with all that was measured. No single strategy was best on every
// recorded space (bench/search_efficiency); taking turns costs each at most a factor of the
// members' count where it is best, and lets the other recover where it is not.
#include "driver/search/detail/strategies.h"

namespace optiml::search {
namespace {

class Portfolio : public Strategy {
  public:
    explicit Portfolio(std::vector<std::unique_ptr<Strategy>> members)
        : members_(std::move(members)) {}

    std::string name() const override {
        std::string text;
        for (const auto& member : members_) text += (text.empty() ? "" : "+") + member->name();
        return text;
    }

    std::vector<Config> propose(std::size_t n) override {
        std::vector<Config> out;
        std::size_t idle = 0;  // members in a row that had nothing to propose
        while (out.size() < n && idle < members_.size()) {
            std::vector<Config> one = members_[turn_ % members_.size()]->propose(1);
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
        for (const auto& member : members_) member->observe(config, outcome);
    }

  private:
    std::vector<std::unique_ptr<Strategy>> members_;
    std::size_t turn_ = 0;
};

}  // namespace

std::unique_ptr<Strategy> make_portfolio(std::vector<std::unique_ptr<Strategy>> members) {
    return std::make_unique<Portfolio>(std::move(members));
}

}  // namespace optiml::search
