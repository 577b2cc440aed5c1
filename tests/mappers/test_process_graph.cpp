#include <doctest/doctest.h>

#include "test_files.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "mappers/process_graph.h"
#include "support/error.h"

using namespace mapsim;

TEST_CASE("regular process topologies have the textbook edge counts") {
  CHECK(make_process_graph("mesh:16x16").edges().size() == 480);
  CHECK(make_process_graph("torus:8x8").edges().size() == 128);
  CHECK(make_process_graph("torus:4x4x4").edges().size() == 192);
  CHECK(make_process_graph("ring:64").edges().size() == 64);
  CHECK(make_process_graph("ring:2").edges().size() == 1);
  CHECK(make_process_graph("hypercube:dim=7").edges().size() == 448);
  ProcessGraph tree = make_process_graph("bintree:levels=7");
  CHECK(tree.num_tasks() == 127);
  CHECK(tree.edges().size() == 126);
  ProcessGraph mesh = make_process_graph("mesh:4x3,volume=1e5");
  CHECK(mesh.dims == std::vector<int>{4, 3});
  CHECK(mesh.total_volume() == 17 * 1e5);
  CHECK(mesh.neighbours(5).size() == 4);
}

TEST_CASE("random patterns have the expected edge count on average") {
  double total = 0;
  for (int seed = 1; seed <= 100; ++seed)
    total += make_process_graph("random:tasks=128,edges=448,seed=" + std::to_string(seed)).edges().size();
  CHECK(total / 100 == doctest::Approx(448).epsilon(0.02));
  CHECK(make_process_graph("random:seed=3").edges().size() == make_process_graph("random:seed=3").edges().size());
}

TEST_CASE("patterns add distant partners as a fraction of all messages") {
  ProcessGraph g = make_process_graph("pattern:mesh:16x16,distant=0.2,seed=4");
  int distant = 0;
  for (const ProcessEdge& e : g.edges()) distant += e.distant;
  CHECK(distant == 120);  // 480 neighbour edges: 120 / 600 = 20 %
  CHECK(g.edges().size() == 600);
  CHECK(g.dims == std::vector<int>{16, 16});
  CHECK_THROWS_AS(make_process_graph("pattern:mesh:4x4,distant=1"), Error);
}

TEST_CASE("graph files: edge lists and METIS") {
  ProcessGraph list = make_process_graph("graph:" + temp_file("edges.txt", "# a b volume\n0 1 5\n1 0 3\n1 2\n"));
  CHECK(list.num_tasks() == 3);
  REQUIRE(list.edges().size() == 2);
  CHECK(list.edges()[0].volume == 8);  // both directions listed: volumes add up
  ProcessGraph metis = make_process_graph("graph:" + temp_file("g.graph", "% triangle + tail\n4 4 001\n2 7 3 1\n1 7 3 2\n1 1 2 2 4 9\n3 9\n"));
  CHECK(metis.num_tasks() == 4);
  CHECK(metis.edges().size() == 4);
  CHECK(metis.total_volume() == 7 + 1 + 2 + 9);
  CHECK_THROWS_WITH_AS(make_process_graph("graph:" + temp_file("bad.txt", "0 1\n2 x\n")), doctest::Contains("bad.txt:2: expected 'task task [volume]'"), Error);
  CHECK_THROWS_WITH_AS(make_process_graph("graph:" + temp_file("short.graph", "3 2\n2\n1 3\n")), doctest::Contains("truncated"), Error);
  CHECK_THROWS_WITH_AS(make_process_graph("graph:" + temp_file("range.graph", "2 1\n5\n1\n")), doctest::Contains("range.graph:2: neighbour 5 is out of 1..2"), Error);
}

TEST_CASE("write_metis_graph: METIS text that reads back as the same graph") {
  auto edges = [](const ProcessGraph& g) {
    std::map<std::pair<int, int>, double> m;
    for (const ProcessEdge& e : g.edges()) m[{e.a, e.b}] += e.volume;
    return m;
  };
  ProcessGraph weighted(4);
  weighted.add_edge(0, 1, 2.5);
  weighted.add_edge(1, 0, 1);  // the same pair again: one METIS edge of volume 3.5
  weighted.add_edge(2, 3, 7);
  std::ostringstream text;
  write_metis_graph(weighted, text);
  CHECK(text.str() == "4 2 1\n2 3.5\n1 3.5\n4 7\n3 7\n");
  ProcessGraph back = make_process_graph("graph:" + temp_file("w.graph", text.str()));
  CHECK(back.num_tasks() == 4);
  CHECK(edges(back) == edges(weighted));
  for (const char* spec : {"mesh:5x4", "delaunay:tasks=300,seed=2", "pattern:ring:40,distant=0.2"}) {
    CAPTURE(std::string(spec));
    ProcessGraph g = make_process_graph(spec);
    std::ostringstream out;
    write_metis_graph(g, out);
    CHECK(edges(make_process_graph("graph:" + temp_file("g.graph", out.str()))) == edges(g));
    CHECK(out.str().find(" 1\n") != 0);  // unit volumes: no weight column
  }
}

TEST_CASE("process spec errors") {
  CHECK_THROWS_WITH_AS(make_process_graph("star:5"), doctest::Contains("unknown process topology 'star'"), Error);
  CHECK_THROWS_AS(make_process_graph("mesh:16x16,colour=red"), Error);
  CHECK_THROWS_AS(make_process_graph("ring:1"), Error);
  CHECK_THROWS_AS(make_process_graph("random:tasks=4,edges=10"), Error);
}
