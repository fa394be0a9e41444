// The C ABI over deepselect::topk: exceptions become return codes and a thread-local message.
#include <deepselect/deepselect.h>

#include <deepselect/deepselect.hpp>
#include <string>

namespace {

thread_local std::string last_error;
thread_local std::string last_argument;

deepselect::TopkArgs to_cpp(const ds_topk_args& c) {
  deepselect::TopkArgs a;
  a.x = c.x;
  a.dtype = static_cast<deepselect::DType>(c.dtype);
  a.rows = c.rows;
  a.n = c.n;
  a.ld = c.ld;
  a.k = c.k;
  a.k_per_row = c.k_per_row;
  a.begin = c.begin;
  a.end = c.end;
  a.largest = c.largest != 0;
  a.order = static_cast<deepselect::Order>(c.order);
  a.nan_policy = static_cast<deepselect::NanPolicy>(c.nan_policy);
  a.indices = c.indices;
  a.index_type = static_cast<deepselect::IndexType>(c.index_type);
  a.ld_idx = c.ld_idx;
  a.values = c.values;
  a.ld_val = c.ld_val;
  a.fill_index = c.fill_index;
  if (c.has_fill_value != 0) a.fill_value = c.fill_value;
  a.index_offset = c.index_offset;
  a.row_status = c.row_status;
  a.seq_lens = c.seq_lens;
  a.next_n = c.next_n;
  a.page_table = c.page_table;
  a.page_table_rows = c.page_table_rows;
  a.page_table_cols = c.page_table_cols;
  a.ld_page_table = c.ld_page_table;
  a.page_size = c.page_size;
  a.row_to_batch = c.row_to_batch;
  a.raw_indices = c.raw_indices;
  a.ld_raw = c.ld_raw;
  a.pdl = c.pdl != 0;
  return a;
}

// Records a failure for ds_last_error; where even that cannot allocate, its message stays ""
// and the code still says what failed.
int failed(int code, const char* message, const char* argument) noexcept {
  try {
    last_error = message;
    last_argument = argument;
  } catch (...) {
    last_error.clear();
    last_argument.clear();
  }
  return code;
}

}  // namespace

extern "C" {

void ds_topk_args_init(ds_topk_args* args) {
  if (args == nullptr) return;
  *args = ds_topk_args{};
  args->largest = 1;
  args->fill_index = -1;
  args->next_n = 1;
}

size_t ds_topk_args_size(void) {
  return sizeof(ds_topk_args);
}

int ds_topk(const ds_topk_args* args, void* stream) {
  last_error.clear();
  last_argument.clear();
  try {
    if (args == nullptr) throw deepselect::ArgumentError("args", "is null");
    deepselect::topk(to_cpp(*args), static_cast<CUstream>(stream));
    return DS_OK;
  } catch (const deepselect::ArgumentError& error) {
    return failed(DS_ERROR_ARGUMENT, error.what(), error.argument().c_str());
  } catch (const std::exception& error) {
    return failed(DS_ERROR_RUNTIME, error.what(), "");
  } catch (...) {
    return failed(DS_ERROR_RUNTIME, "deepselect: an unknown exception", "");
  }
}

const char* ds_last_error(void) {
  return last_error.c_str();
}
const char* ds_last_error_argument(void) {
  return last_argument.c_str();
}
const char* ds_version(void) {
  return deepselect::version();
}

}  // extern "C"
