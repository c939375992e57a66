#include "engine/solvers/islands.h"

#include <algorithm>
#include <string>

namespace stiction {

namespace {

// h ← max(h, other) entry by entry, the shorter padded with its last value.
void MergeHistory(const std::vector<double>& other, std::vector<double>* h) {
  const std::size_t n = std::max(h->size(), other.size());
  const double h_last = h->empty() ? 0 : h->back();
  h->resize(n, h_last);
  for (std::size_t k = 0; k < n; ++k) {
    (*h)[k] = std::max((*h)[k], other.empty() ? 0 : other[std::min(k, other.size() - 1)]);
  }
}

}  // namespace

int Islands::Find(const ContactProblem& problem) {
  const int trees = problem.num_trees();
  tree_parent_.resize(trees);
  for (int t = 0; t < trees; ++t) tree_parent_[t] = t;
  auto root = [&](int t) {
    while (tree_parent_[t] != t) t = tree_parent_[t] = tree_parent_[tree_parent_[t]];
    return t;
  };
  for (const Constraint& c : problem.constraints) {
    for (std::size_t b = 1; b < c.blocks.size(); ++b) {
      const int a = root(c.blocks[0].tree), d = root(c.blocks[b].tree);
      if (a != d) tree_parent_[std::max(a, d)] = std::min(a, d);  // Root = smallest tree.
    }
  }
  // Islands numbered in order of their root, the smallest tree of each
  // island: deterministic.
  island_of_root_.assign(trees, -1);
  for (const Constraint& c : problem.constraints) island_of_root_[root(c.blocks.front().tree)] = 0;
  int count = 0;
  for (int t = 0; t < trees; ++t) {
    if (island_of_root_[t] == 0) island_of_root_[t] = ++count;  // 1-based while marking.
  }
  if (static_cast<int>(constraints_.size()) < count) constraints_.resize(count);
  for (int i = 0; i < count; ++i) constraints_[i].clear();
  for (std::size_t k = 0; k < problem.constraints.size(); ++k) {
    constraints_[island_of_root_[root(problem.constraints[k].blocks.front().tree)] - 1].push_back(
        static_cast<int>(k));
  }
  count_ = count;
  return count;
}

void Islands::Extract(const ContactProblem& problem, int i, const VectorX& v_guess, IslandProblem* out) const {
  const std::vector<int>& island = constraints_[i];
  ContactProblem& sub = out->problem;
  std::vector<int>& trees = out->trees;
  std::vector<int>& tree_local = out->tree_local;
  trees.clear();
  tree_local.assign(problem.num_trees(), -1);
  for (int k : island) {
    for (const ConstraintJacobianBlock& b : problem.constraints[k].blocks) {
      if (tree_local[b.tree] < 0) {
        tree_local[b.tree] = 0;
        trees.push_back(b.tree);
      }
    }
  }
  std::sort(trees.begin(), trees.end());  // Keep the tree order.
  const int n_trees = static_cast<int>(trees.size());
  sub.dt = problem.dt;
  sub.tree_v_start.resize(n_trees);
  sub.tree_nv.resize(n_trees);
  sub.A.resize(n_trees);
  int nv = 0;
  for (int t = 0; t < n_trees; ++t) {
    const int g = trees[t];
    tree_local[g] = t;
    sub.tree_v_start[t] = nv;
    sub.tree_nv[t] = problem.tree_nv[g];
    sub.A[t] = problem.A[g];
    nv += problem.tree_nv[g];
  }
  sub.v_star.resize(nv);
  out->v_guess.resize(nv);
  for (int t = 0; t < n_trees; ++t) {
    const int g = trees[t];
    sub.v_star.segment(sub.tree_v_start[t], sub.tree_nv[t]) =
        problem.v_star.segment(problem.tree_v_start[g], problem.tree_nv[g]);
    out->v_guess.segment(sub.tree_v_start[t], sub.tree_nv[t]) =
        v_guess.segment(problem.tree_v_start[g], problem.tree_nv[g]);
  }
  sub.constraints.resize(island.size());
  for (std::size_t k = 0; k < island.size(); ++k) {
    sub.constraints[k] = problem.constraints[island[k]];  // Reuses capacity.
    for (ConstraintJacobianBlock& b : sub.constraints[k].blocks) b.tree = tree_local[b.tree];
  }
}

SolverStatus MergeIslandSolves(const ContactProblem& problem, const Islands& islands,
                               std::span<const IslandSolve> solves, SolverResult* result) {
  SolverResult& r = *result;
  r = SolverResult{};
  r.v = problem.v_star;
  r.gamma = VectorX::Zero(problem.num_rows());
  r.usable = true;
  std::vector<int> row_start(problem.constraints.size());
  for (std::size_t k = 0, row = 0; k < problem.constraints.size(); ++k) {
    row_start[k] = static_cast<int>(row);
    row += problem.constraints[k].num_rows;
  }
  const bool has_slack = std::any_of(solves.begin(), solves.end(),
                                     [](const IslandSolve& s) { return s.result.slack.size() > 0; });
  if (has_slack) r.slack = VectorX::Zero(problem.num_rows());
  // Merged in island order, whichever thread solved each.
  SolverStatus status = SolverStatus::kConverged;
  for (int i = 0; i < islands.size(); ++i) {
    const IslandSolve& solve = solves[i];
    const SolverResult& s = solve.result;
    int v_offset = 0;
    for (const int g : solve.trees) {
      r.v.segment(problem.tree_v_start[g], problem.tree_nv[g]) = s.v.segment(v_offset, problem.tree_nv[g]);
      v_offset += problem.tree_nv[g];
    }
    const std::vector<int>& constraints = islands.constraints(i);
    for (std::size_t k = 0, row = 0; k < constraints.size(); ++k) {
      const int c = constraints[k];
      const int m = problem.constraints[c].num_rows;
      r.gamma.segment(row_start[c], m) = s.gamma.segment(row, m);
      if (has_slack && s.slack.size() > 0) r.slack.segment(row_start[c], m) = s.slack.segment(row, m);
      row += m;
    }
    r.usable = r.usable && s.usable;
    r.budget_hit = r.budget_hit || s.budget_hit;
    r.iterations = std::max(r.iterations, s.iterations);
    r.line_search_iterations += s.line_search_iterations;
    r.cost += s.cost;
    r.momentum_error = std::max(r.momentum_error, s.momentum_error);
    r.complementarity_error = std::max(r.complementarity_error, s.complementarity_error);
    r.assembly_time_s += s.assembly_time_s;
    r.factorization_time_s += s.factorization_time_s;
    r.line_search_time_s += s.line_search_time_s;
    r.outer_iterations = std::max(r.outer_iterations, s.outer_iterations);
    r.constraint_residual = std::max(r.constraint_residual, s.constraint_residual);
    r.penalty = std::max(r.penalty, s.penalty);
    MergeHistory(s.momentum_error_history, &r.momentum_error_history);
    MergeHistory(s.residual_history, &r.residual_history);
    if (solve.status != SolverStatus::kConverged && status == SolverStatus::kConverged) {
      status = solve.status;
      r.message = s.message + " (island " + std::to_string(i + 1) + " of " + std::to_string(islands.size()) + ")";
    }
  }
  return status;
}

}  // namespace stiction
