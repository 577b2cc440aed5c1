// What libmapsim exports: the functions of these headers (the library hides everything else).
#pragma once
#define MAPSIM_API __attribute__((visibility("default")))
