// Splitting one problem's rows over several GPUs (the multi-GPU gpu.jacobi
// and gpu.vi, gpu/partitioned_solve.cpp). Host code, so that the split and
// its renumbering are tested without a GPU (tests/unit/test_row_partition.cpp).
//
// States are cut into contiguous slices balanced by non-zeros (MDP states
// keep all their choices). Every device holds its slice's rows and the whole
// iterate in a padded layout: slice p's values sit at slots
// [p·stride, p·stride + size_p), so that an NCCL all-gather of `stride`
// values per device rebuilds the iterate in place on every device (NCCL's
// all-gather needs equal counts). Within a slice, interior states (whose
// rows read only the slice's own values) come first: they are updated while
// the other slices' values are still in flight (GPU-PRISM, Bošnački 2011
// §5: host synchronisation of the two halves held its two GPUs to ~4×).
// The states other slices read sit in one block where interior and
// boundary states meet, so what one slice reads of another is one short
// range (PartitionLayout::reads) wherever the structure is local.
#pragma once

#include <cstdint>
#include <vector>

#include "common/index_range.hpp"
#include "solver/problem.hpp"

namespace pmc {

struct PartitionLayout {
  uint64_t stride = 1;  // slots per slice in the padded iterate (at least 1)
  // Per slice: the global states it owns, in slot order (interior first).
  std::vector<std::vector<uint64_t>> states;
  std::vector<uint64_t> interior;  // per slice: how many of its first states are interior
  std::vector<uint64_t> slot;      // global state -> slot in the padded iterate
  // reads[q][p]: the positions k (slot p·stride + k) of slice p's values
  // that rows of slice q read, from the first to the last read; empty when
  // q reads nothing of p, the whole slice for p == q. The exchange sends
  // only these values: a band crossing a cut reads a few near it.
  std::vector<std::vector<IndexRange>> reads;

  uint64_t slices() const { return states.size(); }
  uint64_t padded_size() const { return stride * slices(); }
};

// One slice's rows, renumbered: row groups, CSR and b in slot order, columns
// as slots. For a linear system every state has one row and `groups` is
// empty; `scale` then holds 1/(1 − a_ii) and the diagonal is left out of the
// matrix (Jacobi), unless the slice was built without the split.
struct MatrixSlice {
  std::vector<uint64_t> groups;  // MDP: states + 1 offsets into the rows; empty for a linear system
  SparseMatrix a;
  std::vector<double> b;
  std::vector<double> scale;  // linear systems only
};

// Contiguous state ranges [bounds[p], bounds[p+1]) with about equal
// non-zeros (each state weighs its entries plus one, so that empty rows
// still spread). `state_entry_offsets` has states + 1 entries (the CSR row
// offsets, or the entry offset of each state's first choice for an MDP).
// Fewer states than slices leaves trailing slices empty.
std::vector<uint64_t> balance_by_entries(const std::vector<uint64_t>& state_entry_offsets, uint64_t slices);

// The padded layout of `bounds`: in each slice interior states first, the
// states other slices read between interior and boundary ones.
// `row_groups` is empty for a linear system (one row per state).
PartitionLayout make_partition_layout(const std::vector<uint64_t>& bounds, const std::vector<uint64_t>& row_groups,
                                      const SparseMatrix& a);

// Slice p of a linear system x = A·x + b for Jacobi: diagonal split off.
MatrixSlice slice_linear_system(const LinearSystem& system, const PartitionLayout& layout, uint64_t slice);
// Slice p of a min/max problem (rows of each state kept in order, so choice
// indices stay valid).
MatrixSlice slice_minmax_problem(const MinMaxProblem& problem, const PartitionLayout& layout, uint64_t slice);

// The iterate in the padded layout and back.
std::vector<double> to_padded(const std::vector<double>& x, const PartitionLayout& layout);
void from_padded(const std::vector<double>& padded, const PartitionLayout& layout, std::vector<double>& x);

}  // namespace pmc
