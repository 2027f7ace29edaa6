//===- StandaloneMain.cpp - a fuzz target's driver without libFuzzer -----------===//
//
//   <target> [-seconds=S] [-runs=N] [-mutations=M] [-seed=K] [-artifact_prefix=DIR/]
//            CORPUS_DIR_OR_FILE...
//
// Runs every corpus input once, then mutations of them (bytes flipped, inserted or erased;
// lines deleted, duplicated, swapped, or spliced in from another input) until S seconds, N
// runs or M mutations. Before each run the input is written to <prefix>current-input, so a crash leaves the
// input that caused it behind. Exit status 0 means no input crashed.
//
//===----------------------------------------------------------------------===//
#include "FuzzTarget.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

namespace {

using Input = std::string;

std::vector<Input> readCorpus(const std::vector<std::string> &paths) {
  std::vector<Input> corpus;
  auto add = [&](const std::filesystem::path &file) {
    std::ifstream in(file, std::ios::binary);
    corpus.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  for (const std::string &path : paths) {
    if (std::filesystem::is_directory(path)) {
      std::vector<std::filesystem::path> files;
      for (const auto &entry : std::filesystem::recursive_directory_iterator(path))
        if (entry.is_regular_file())
          files.push_back(entry.path());
      std::sort(files.begin(), files.end());
      for (const auto &file : files)
        add(file);
    } else if (std::filesystem::is_regular_file(path)) {
      add(path);
    }
  }
  return corpus;
}

std::vector<std::string> lines(const Input &text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      out.push_back(text.substr(start));
      break;
    }
    out.push_back(text.substr(start, end - start + 1));
    start = end + 1;
  }
  return out;
}

Input mutate(const Input &base, const std::vector<Input> &corpus, std::mt19937_64 &rng) {
  auto pick = [&](size_t n) { return n ? size_t(rng() % n) : 0; };
  Input out = base;
  const int edits = 1 + int(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    std::vector<std::string> ls = lines(out);
    switch (rng() % 8) {
    case 0: // flip a byte
      if (!out.empty())
        out[pick(out.size())] ^= char(1u << (rng() % 8));
      break;
    case 1: // insert a byte that matters to C++ and MLIR
      out.insert(pick(out.size() + 1), 1, "{}()<>;,:=+-*/&|!?[]%^~#.\"' 0123456789\n"[rng() % 40]);
      break;
    case 2: // erase a run of bytes
      if (!out.empty()) {
        size_t at = pick(out.size());
        out.erase(at, 1 + pick(std::min<size_t>(16, out.size() - at)));
      }
      break;
    case 3: // delete a line
      if (!ls.empty())
        ls.erase(ls.begin() + long(pick(ls.size())));
      break;
    case 4: // duplicate a line
      if (!ls.empty()) {
        size_t at = pick(ls.size());
        ls.insert(ls.begin() + long(at), ls[at]);
      }
      break;
    case 5: // swap two lines
      if (ls.size() > 1)
        std::swap(ls[pick(ls.size())], ls[pick(ls.size())]);
      break;
    default: { // splice in a line of another input
      const Input &other = corpus[pick(corpus.size())];
      std::vector<std::string> theirs = lines(other);
      if (!theirs.empty())
        ls.insert(ls.begin() + long(pick(ls.size() + 1)), theirs[pick(theirs.size())]);
      break;
    }
    }
    if (rng() % 8 >= 3) { // the line edits
      out.clear();
      for (const std::string &l : ls)
        out += l;
    }
  }
  return out;
}

} // namespace

int main(int argc, char **argv) {
  double seconds = 10;
  long runs = -1, mutations = -1;
  unsigned long long seed = 1;
  std::string prefix;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("-seconds=", 0) == 0)
      seconds = std::atof(arg.c_str() + 9);
    else if (arg.rfind("-runs=", 0) == 0)
      runs = std::atol(arg.c_str() + 6);
    else if (arg.rfind("-mutations=", 0) == 0)
      mutations = std::atol(arg.c_str() + 11);
    else if (arg.rfind("-seed=", 0) == 0)
      seed = std::strtoull(arg.c_str() + 6, nullptr, 10);
    else if (arg.rfind("-artifact_prefix=", 0) == 0)
      prefix = arg.substr(17);
    else if (!arg.empty() && arg[0] == '-') {
      std::fprintf(stderr, "unknown option '%s'\n", arg.c_str());
      return 2;
    } else
      paths.push_back(arg);
  }
  LLVMFuzzerInitialize(&argc, &argv);
  std::vector<Input> corpus = readCorpus(paths);
  if (corpus.empty()) {
    std::fprintf(stderr, "no corpus inputs\n");
    return 2;
  }
  const std::string current = prefix + "current-input";
  auto run = [&](const Input &input) {
    {
      std::ofstream out(current, std::ios::binary | std::ios::trunc);
      out << input;
    }
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(input.data()), input.size());
  };
  const auto start = std::chrono::steady_clock::now();
  auto timeLeft = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() <
           seconds;
  };
  long done = 0;
  for (const Input &input : corpus) {
    if ((runs >= 0 && done >= runs) || !timeLeft())
      break;
    run(input);
    ++done;
  }
  const long seeds = done;
  std::mt19937_64 rng(seed);
  while ((runs < 0 || done < runs) && (mutations < 0 || done - seeds < mutations) && timeLeft()) {
    run(mutate(corpus[rng() % corpus.size()], corpus, rng));
    ++done;
  }
  std::remove(current.c_str());
  std::printf("%ld runs (%ld of %zu corpus inputs, %ld mutations) in %.1f s, no crash\n", done,
              seeds, corpus.size(), done - seeds,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return 0;
}
