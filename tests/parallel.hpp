// Runs independent iterations on every hardware thread (the reference and the data generators
// work row by row).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace deepselect::testing {

// Calls fn(i) for every i in [0, count), in any order and concurrently; rethrows the first
// exception once all threads have stopped.
template <class Fn>
void parallel_for(int64_t count, const Fn& fn) {
  const int64_t workers =
      std::min<int64_t>(count, std::max(1u, std::thread::hardware_concurrency()));
  std::atomic<int64_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  const auto work = [&] {
    try {
      for (int64_t i = next++; i < count; i = next++) fn(i);
    } catch (...) {
      const std::lock_guard<std::mutex> lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      next = count;
    }
  };
  std::vector<std::thread> threads;
  for (int64_t t = 1; t < workers; ++t) threads.emplace_back(work);
  work();
  for (std::thread& thread : threads) thread.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace deepselect::testing
