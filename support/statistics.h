// Summary statistics of replicated measurements: mean, sample standard deviation and the
// half-width of the 95 % confidence interval of the mean (Student's t, n - 1 degrees of freedom).
#pragma once
#include <vector>

namespace mapsim {

struct Statistics {
  long n = 0;
  double mean = 0, sd = 0, ci95 = 0;  // sd and ci95 are 0 for n < 2
};

// NaN values (results that do not apply) are left out: n counts the others.
Statistics summarise(const std::vector<double>& values);
// Spearman's rank correlation of two equally long series (ties get their mean rank); NaN when either
// is constant or has fewer than 3 values: it then says nothing.
double spearman(const std::vector<double>& x, const std::vector<double>& y);
// t_{0.975, dof}: 12.706 for 1, 2.262 for 9, 1.960 as dof grows.
double student_t975(long dof);

}  // namespace mapsim
