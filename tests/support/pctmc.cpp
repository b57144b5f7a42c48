#include "support/pctmc.hpp"

#include <fstream>
#include <sstream>

#include "formats/model_files.hpp"
#include "support/manifest.hpp"

namespace pmc::testing {

std::string pctmc_dir() {
  const std::string root = models_root();
  if (root.empty()) return "";
  const std::string dir = root + "/pctmc";
  return std::ifstream(dir + "/reference.tsv") ? dir : "";
}

ModelPtr load_pctmc(const std::string& file_name) {
  static std::map<std::string, ModelPtr> cache;
  auto it = cache.find(file_name);
  if (it == cache.end()) it = cache.emplace(file_name, load_model({pctmc_dir() + "/" + file_name}, "", {})).first;
  return it->second;
}

std::vector<PctmcReference> pctmc_references() {
  std::vector<PctmcReference> refs;
  std::ifstream in(pctmc_dir() + "/reference.tsv");
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, '\t');) f.push_back(x);
    if (f.size() != 4) continue;
    PctmcReference r{f[0], {}, f[2], std::stod(f[3])};
    std::stringstream ps(f[1]);
    for (std::string kv; std::getline(ps, kv, ',');) {
      const auto eq = kv.find('=');
      r.point[kv.substr(0, eq)] = std::stod(kv.substr(eq + 1));
    }
    refs.push_back(r);
  }
  return refs;
}

std::vector<double> point_of(const Model& m, const std::map<std::string, double>& named) {
  std::vector<double> p;
  for (const Parameter& par : m.parameters()) p.push_back(named.at(par.name));
  return p;
}

ParamBox box_around(const std::vector<double>& p, double h) {
  ParamBox b;
  for (double v : p) {
    b.lower.push_back(v * (1 - h));
    b.upper.push_back(v * (1 + h));
  }
  return b;
}

ModelPtr instantiate(const Model& m, const std::vector<double>& p) {
  ModelParts parts = m.parts();
  parts.type = ModelType::ctmc;
  const size_t k = p.size();
  for (size_t e = 0; e < parts.values.size(); ++e) {
    for (size_t j = 0; j < k; ++j) parts.values[e] += parts.coefficients[e * k + j] * p[j];
  }
  parts.parameters.clear();
  parts.coefficients.clear();
  return Model::create(std::move(parts));
}

ModelPtr sir_with_infected_reward() {
  const ModelPtr base = load_pctmc("sir_100.drn");
  RewardStructure infected{"infected", std::vector<double>(base->num_states(), 0.0), {}};
  const Label* label = base->find_label("infected");
  for (uint64_t s = 0; s < base->num_states(); ++s) infected.state_rewards[s] = label->states.test(s) ? 1 : 0;
  return base->with_rewards(infected);
}

}  // namespace pmc::testing
