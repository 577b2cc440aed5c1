#include "support/statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace mapsim {

double student_t975(long dof) {
  static const double table[] = {12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
                                 2.2010,  2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
                                 2.0796,  2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423};
  if (dof < 1) return 0;
  if (dof <= 30) return table[dof - 1];
  // Beyond 30 the quantile is close to 1.96 + 2.4/dof (within 0.002).
  return 1.95996 + 2.4 / static_cast<double>(dof);
}

Statistics summarise(const std::vector<double>& all) {
  std::vector<double> values;
  for (double v : all)
    if (!std::isnan(v)) values.push_back(v);
  Statistics s;
  s.n = static_cast<long>(values.size());
  if (s.n == 0) return s;
  for (double v : values) s.mean += v;
  s.mean /= static_cast<double>(s.n);
  // Equal values: their mean and no deviation, exactly (the rounded sum would leave ~1e-16 of noise).
  if (s.n < 2 || std::all_of(values.begin(), values.end(), [&](double v) { return v == values.front(); })) {
    if (s.n > 0) s.mean = values.front();
    return s;
  }
  double squares = 0;
  for (double v : values) squares += (v - s.mean) * (v - s.mean);
  s.sd = std::sqrt(squares / static_cast<double>(s.n - 1));
  s.ci95 = student_t975(s.n - 1) * s.sd / std::sqrt(static_cast<double>(s.n));
  return s;
}

namespace {

std::vector<double> ranks(const std::vector<double>& v) {
  std::vector<size_t> order(v.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return v[a] < v[b]; });
  std::vector<double> rank(v.size());
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
    for (size_t k = i; k <= j; ++k) rank[order[k]] = (static_cast<double>(i + j) + 2) / 2;  // 1-based mean rank
    i = j + 1;
  }
  return rank;
}

}  // namespace

double spearman(const std::vector<double>& x, const std::vector<double>& y) {
  const double none = std::numeric_limits<double>::quiet_NaN();
  if (x.size() != y.size() || x.size() < 3) return none;
  const std::vector<double> rx = ranks(x), ry = ranks(y);
  const double mean = (static_cast<double>(x.size()) + 1) / 2;
  double sxy = 0, sxx = 0, syy = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    sxy += (rx[i] - mean) * (ry[i] - mean);
    sxx += (rx[i] - mean) * (rx[i] - mean);
    syy += (ry[i] - mean) * (ry[i] - mean);
  }
  return sxx == 0 || syy == 0 ? none : sxy / std::sqrt(sxx * syy);
}

}  // namespace mapsim
