// UMB, the "unified Markov binary" explicit-model format that PRISM (4.10)
// and Storm read and write: a tar archive (plain, gzip or xz) of an
// index.json and little-endian binary arrays — state-to-choices.bin and
// choice-to-branches.bin (CSR offsets, uint64), branch-to-target.bin
// (uint64), branch-to-probability.bin (double), state-is-initial.bin (a
// bitset), state-to-exit-rate.bin (CTMCs), annotations/aps/<id>/ (labels),
// annotations/rewards/<id>/{states,choices,branches}/ (rewards),
// actions/{choices,branches}/ (action names) and valuations/states/ (state
// variables, bit-packed). Specification: pmc-tools.github.io/umb (format
// version 1).
//
// pmc reads DTMCs (time "discrete", 0 players), MDPs (discrete, 1 player)
// and CTMCs (time "stochastic", 0 players) with double probabilities and
// exit rates; other model types and number types are Error(unsupported)
// naming what the file holds. A CTMC's rate of a branch is its exit rate
// times its probability. Choice rewards become the transition rewards of
// every entry of the choice (an equal reward on each branch has the same
// expectation). State valuations of one class of int, uint and bool
// variables are read; others are skipped with a warning.
//
// The writer writes format version 1, gzip-compressed, with everything
// pmc's model holds that UMB carries: labels ("init" as the initial states,
// the others as atomic propositions), state and transition (branch)
// rewards, action names (per choice where every entry of a row has the
// same action, else per branch), CTMC exit rates and state valuations.
// Identifiers are pmc's names made to fit UMB's [0-9a-z_-]+; the names
// themselves go into "alias", which the reader prefers.
#pragma once

#include <string>

#include "model/model.hpp"

namespace pmc {

// options.memory_limit: index.json's counts must fit it before the arrays
// are reserved. Errors (Error(parse) or Error(unsupported)) name the file
// and the member.
ModelParts read_umb(const std::string& path, const ModelOptions& options = {});

void write_umb(const Model& model, const std::string& path);

}  // namespace pmc
