// Direct solution of one small linear system x = C·x + r (C ≥ 0 with an
// exit: I − C is a non-singular M-matrix) by eliminating its unknowns one
// at a time, as state elimination removes states from a Markov chain:
// unknown k's row is divided by 1 − c_kk and substituted into every row
// that reads x_k, which then reads x_k's successors instead. This is
// Gaussian elimination of I − C without pivoting (stable on such
// matrices), in sparse form, in an order that keeps the fill small: the
// unknown with the fewest (readers × successors) first (Markowitz), so a
// hub (Haddad–Monmege's middle state, read by every other one) goes last.
//
// The scalar is double (the fast path) or a GMP rational (the exact one:
// the same steps with no rounding); each row carries `rhs_count`
// right-hand sides, solved together. `eliminate` gives up when the work
// passes the caller's budget or a pivot 1 − c_kk is not positive (in
// doubles, also where rounding took an SCC's last exit: Haddad–Monmege's
// hub keeps 1 − 2^−100 of its mass); the caller then solves the system
// another way.
#pragma once

#include <algorithm>
#include <cstdint>
#include <queue>
#include <vector>

namespace pmc {

// The cost of one multiply-add on a scalar, in the budget's steps: 1 for
// doubles; rationals specialise it (rationals.hpp).
template <typename Scalar>
struct EliminationCost {
  static uint64_t of(const Scalar&) { return 1; }
};

template <typename Scalar>
class StateElimination {
 public:
  struct Entry {
    uint32_t column;
    Scalar value;
  };

  StateElimination(uint32_t unknowns, uint32_t rhs_count)
      : rows_(unknowns), self_(unknowns, Scalar(0)), rhs_(static_cast<size_t>(unknowns) * rhs_count, Scalar(0)),
        readers_(unknowns), reader_count_(unknowns, 0), eliminated_(unknowns, false), position_(unknowns, -1),
        rhs_count_(rhs_count) {}

  // c_ij += value (i ≠ j goes to the row, i = j to the diagonal). Each
  // (i, j) at most once per call sequence for i ≠ j.
  void add(uint32_t i, uint32_t j, const Scalar& value) {
    if (i == j) {
      self_[i] += value;
      return;
    }
    rows_[i].push_back({j, value});
    readers_[j].push_back(i);
    ++reader_count_[j];
  }
  Scalar& rhs(uint32_t i, uint32_t k) { return rhs_[static_cast<size_t>(i) * rhs_count_ + k]; }

  enum class Outcome { eliminated, over_budget, singular_pivot };

  // Eliminates every unknown, unless `budget` steps (entries visited)
  // would be exceeded or a pivot is not positive (the system is then left half done).
  Outcome eliminate(uint64_t budget) {
    const auto n = static_cast<uint32_t>(rows_.size());
    using Key = std::pair<uint64_t, uint32_t>;
    std::priority_queue<Key, std::vector<Key>, std::greater<>> queue;
    for (uint32_t i = 0; i < n; ++i) queue.push({markowitz(i), i});
    order_.clear();
    order_.reserve(n);
    work_ = 0;
    while (!queue.empty()) {
      const auto [key, k] = queue.top();
      queue.pop();
      if (eliminated_[k] || key != markowitz(k)) continue;  // stale entry
      const Scalar pivot = Scalar(1) - self_[k];
      if (!(pivot > Scalar(0))) return Outcome::singular_pivot;
      uint64_t pivot_cost = 1;
      for (Entry& e : rows_[k]) {
        e.value /= pivot;
        pivot_cost = std::max(pivot_cost, EliminationCost<Scalar>::of(e.value));
      }
      for (uint32_t m = 0; m < rhs_count_; ++m) {
        rhs(k, m) /= pivot;
        pivot_cost = std::max(pivot_cost, EliminationCost<Scalar>::of(rhs(k, m)));
      }
      eliminated_[k] = true;
      order_.push_back(k);
      for (const Entry& e : rows_[k]) --reader_count_[e.column];
      for (const uint32_t i : readers_[k]) {
        if (eliminated_[i]) continue;
        // Row i is indexed, then merged with row k: both lengths count,
        // each multiply-add at the cost of the scalars involved.
        work_ += rows_[i].size() + (rows_[k].size() + rhs_count_) * pivot_cost;
        if (work_ > budget) return Outcome::over_budget;
        substitute(k, i);
        queue.push({markowitz(i), i});
      }
      for (const Entry& e : rows_[k]) queue.push({markowitz(e.column), e.column});
    }
    return Outcome::eliminated;
  }

  // Steps (entries visited) the last eliminate() spent.
  uint64_t work() const { return work_; }

  // After eliminate(): x_k for right-hand side m, every unknown.
  std::vector<Scalar> solution(uint32_t m) const {
    std::vector<Scalar> x(rows_.size(), Scalar(0));
    for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
      const uint32_t k = *it;
      Scalar sum = rhs_[static_cast<size_t>(k) * rhs_count_ + m];
      for (const Entry& e : rows_[k]) sum += e.value * x[e.column];
      x[k] = sum;
    }
    return x;
  }

 private:
  uint64_t markowitz(uint32_t i) const {
    return static_cast<uint64_t>(rows_[i].size() + 1) * (static_cast<uint64_t>(reader_count_[i]) + 1);
  }

  // Row i reads x_k = Σ c_kj·x_j + r_k (row k already divided by its
  // pivot): replace c_ik·x_k by c_ik times that. Row k only reads unknowns
  // not yet eliminated, so neither does row i afterwards.
  void substitute(uint32_t k, uint32_t i) {
    std::vector<Entry>& row = rows_[i];
    for (size_t p = 0; p < row.size(); ++p) position_[row[p].column] = static_cast<int64_t>(p);
    const int64_t at = position_[k];
    const Scalar weight = row[static_cast<size_t>(at)].value;
    for (const Entry& e : rows_[k]) {
      if (e.column == i) {
        self_[i] += weight * e.value;
      } else if (position_[e.column] >= 0) {
        row[static_cast<size_t>(position_[e.column])].value += weight * e.value;
      } else {
        position_[e.column] = static_cast<int64_t>(row.size());
        row.push_back({e.column, weight * e.value});
        readers_[e.column].push_back(i);
        ++reader_count_[e.column];
      }
    }
    for (uint32_t m = 0; m < rhs_count_; ++m) rhs(i, m) += weight * rhs(k, m);
    for (const Entry& e : row) position_[e.column] = -1;
    // Drop c_ik: swap the last entry into its place.
    row[static_cast<size_t>(at)] = std::move(row.back());
    row.pop_back();
  }

  std::vector<std::vector<Entry>> rows_;  // c_ij, j ≠ i, j not yet eliminated (after eliminate: later ones)
  std::vector<Scalar> self_;              // c_ii
  std::vector<Scalar> rhs_;               // r_i, rhs_count_ per row
  std::vector<std::vector<uint32_t>> readers_;  // rows that read x_j (eliminated ones skipped)
  std::vector<uint32_t> reader_count_;          // readers not yet eliminated
  std::vector<bool> eliminated_;
  std::vector<int64_t> position_;  // scratch: a column's index in the row being updated, or −1
  std::vector<uint32_t> order_;    // elimination order
  uint32_t rhs_count_;
  uint64_t work_ = 0;
};

}  // namespace pmc
