// The parametric CTMCs of $PMC_MODELS/pctmc (Češka et al. 2017) and PRISM's
// values at parameter points (reference.tsv), for the synthesis tests on the
// CPU and the GPU.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "solver/param/param_problem.hpp"

namespace pmc::testing {

// models_root()/pctmc, or "" when it has no reference.tsv.
std::string pctmc_dir();

// A model of pctmc_dir(), loaded once per process.
ModelPtr load_pctmc(const std::string& file_name);

struct PctmcReference {
  std::string model;  // file name, e.g. sir_100.drn
  std::map<std::string, double> point;
  std::string property;
  double value = 0;
};
std::vector<PctmcReference> pctmc_references();

// `named` in the order of m's parameters.
std::vector<double> point_of(const Model& m, const std::map<std::string, double>& named);

// A box of relative half-width `h` around `p`.
ParamBox box_around(const std::vector<double>& p, double h);

// sir_100 with a state reward of 1 in every infected state, for R[C<=t].
ModelPtr sir_with_infected_reward();

// The CTMC of the pCTMC at point p (rates c + Σ a_k·p_k).
ModelPtr instantiate(const Model& m, const std::vector<double>& p);

}  // namespace pmc::testing
