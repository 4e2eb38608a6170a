// The tree of the MCTS strategy. A node stands for a set of candidates (those its moves from the
// root lead to); an edge is a Move, which maps a candidate to another. Over the tuning space a
// move fixes the next parameter to one of its values; program transformations will add moves of
// their own kind (a rewrite applied to the candidate's source), which is why an edge carries a
// Move and not just a value index.
#pragma once

#include <cmath>
#include <cstddef>
#include <memory>
#include <vector>

namespace optiml::search {

struct Move {
    std::size_t parameter = 0;  // which parameter the move fixes
    std::size_t value = 0;      // the index of its value
};

struct MctsNode {
    std::vector<std::size_t> members;  // pool entries this node's candidates are
    std::size_t depth = 0;             // moves from the root
    struct Edge {
        Move move;
        std::unique_ptr<MctsNode> child;
    };
    std::vector<Edge> edges;  // expanded children
    double visits = 0.0;
    double reward = 0.0;  // sum of rewards backed up through here

    MctsNode* child_for(const Move& move) const {
        for (const Edge& edge : edges)
            if (edge.move.parameter == move.parameter && edge.move.value == move.value)
                return edge.child.get();
        return nullptr;
    }
    // Upper confidence bound for trees: mean reward plus an exploration bonus.
    double uct(double parent_visits, double exploration) const {
        if (visits <= 0.0) return INFINITY;
        return reward / visits + exploration * std::sqrt(std::log(parent_visits + 1.0) / visits);
    }
};

}  // namespace optiml::search
