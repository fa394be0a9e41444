// Which rows the CTAs of a cluster hold whole, each its part of the row in shared memory, taken
// in one load with no scan: the kernel's rule (topk_kernel.cuh), which the host follows to launch
// kernels built without their scan (src/spec.cpp KernelSpec::holds_rows_whole).
#pragma once
#include "common.cuh"
#include "sample_keep.cuh"

namespace ds {

// The digit floor's histogram (topk_kernel.cuh load_resident_best_digits): kDigitBins counts of
// kDigitBits key bits, then their sums per 32 digits.
static const int kDigitBits = 11;
static const int kDigitBins = 1 << kDigitBits;
static const int kDigitGroups = kDigitBins / 32;
static const int kDigitWords = kDigitBins + kDigitGroups;

// A topk kernel's shared memory, as far as the parts it holds whole go.
struct PartRoom {
  int capacity;      // candidate words (kCapacity)
  int shared_bytes;  // the candidate buffer and the stages (kSharedBytes)
  int elem_bytes;
  int cluster;
  int k_max;
  int key_bits;
};

// The largest part whose candidate words, digit histogram and staged copy fit together.
DS_HD constexpr int digit_part_limit(PartRoom room) {
  return (room.shared_bytes - kDigitWords * 4) / (8 + room.elem_bytes);
}

// Whether two digit histograms fit between a part's candidate words and its staged copy, so that
// the digit rounds alternate between them (topk_kernel.cuh load_resident_best_digits).
DS_HD constexpr bool digit_histograms_alternate(int part, PartRoom room) {
  return part * (8 + room.elem_bytes) + 2 * kDigitWords * 4 <= room.shared_bytes;
}

// Whether rows split over the kernel's 8 or 16 CTAs and held whole take their first threshold
// from the cluster's histogram of key digits rather than from a sample (topk_kernel.cuh,
// kDigitFloor, says why): where the histogram fits beside a part of a 131,072-column row.
DS_HD constexpr bool takes_digit_floor(PartRoom room) {
  return room.cluster >= 8 && (room.key_bits == 32 || room.k_max <= 64) &&
         131072 / room.cluster + 16 / room.elem_bytes <= digit_part_limit(room);
}

// The length of a CTA's part of a row's aligned view of `span` elements when the row is split
// without a scan: whole 16-byte vectors, the last CTA's part shorter.
DS_HD constexpr int resident_part(int span, PartRoom room) {
  const int vec = 16 / room.elem_bytes;
  return ((span + vec - 1) / vec + room.cluster - 1) / room.cluster * vec;
}

// Whether a part of `part` elements is loaded resident: it fits the buffer, and a cluster's
// staged part (at the end of shared memory) lies above every candidate word the part can make,
// and above the sample's words (at most kSampleElements, and span / kSampleStretch, where span <=
// part * cluster) or the digit histogram past the candidates (digit_histogram).
DS_HD constexpr bool resident_fits(int part, PartRoom room) {
  if (part > room.capacity) return false;
  if (room.cluster == 1) return true;
  if (takes_digit_floor(room)) return part <= digit_part_limit(room);
  const int spread = part * room.cluster / kSampleStretch;
  const int sample_words = spread < kSampleElements ? spread : kSampleElements;
  return (part > sample_words ? part : sample_words) * 8 + part * room.elem_bytes <=
         room.shared_bytes;
}

}  // namespace ds
