// RUN: tilecc check -verify %s
// Threads stored in a container hold what their work borrows until each is joined in a
// range-for; reading an array a stored thread writes before that loop races.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
#include <thread>
#include <vector>

void joined_in_a_loop() {
  Arr a = make(), b = make();
  std::vector<std::thread> workers;
  workers.push_back(std::thread([&] { fill(a); }));
  workers.push_back(std::thread([&] { fill(b); }));
  for (auto& t : workers)
    t.join();
  print(a);
  print(b);
}

void read_before_join() {
  Arr a = make();
  std::vector<std::thread> workers;
  workers.push_back(std::thread([&] { fill(a); })); // expected-note {{'a' was lent exclusively here}}
  print(a); // expected-error {{read (passed to 'print') of 'a' while the work on another thread that 'workers[0]' runs (not joined or waited for) holds an exclusive loan on it}}
  for (auto& t : workers) // expected-note {{the loan is still needed here}}
    t.join();
}
