// A strategy that proposes a fixed order of pool entries, skipping any already taken: exhaustive
// (enumeration order) and random (a seeded shuffle) are both this.
#pragma once

#include "driver/search/detail/strategies.h"

namespace optiml::search {

class OrderedStrategy : public Strategy {
  public:
    OrderedStrategy(std::string name, CandidatePool& pool, std::vector<std::size_t> order)
        : name_(std::move(name)), pool_(pool), order_(std::move(order)) {}
    std::string name() const override { return name_; }
    std::vector<Config> propose(std::size_t n) override {
        std::vector<Config> out;
        for (; out.size() < n && next_ < order_.size(); ++next_)
            if (!pool_.taken(order_[next_])) take_into(pool_, order_[next_], out);
        return out;
    }
    void observe(const Config&, const Outcome&) override {}

  private:
    std::string name_;
    CandidatePool& pool_;
    std::vector<std::size_t> order_;
    std::size_t next_ = 0;
};

}  // namespace optiml::search
