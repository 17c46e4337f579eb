// The methods that go through nwpio's Writer: io_form 11 in its default gathering mode (its
// frames written, and its files committed, behind the model), the same with write-behind off
// (nwpio-io11-sync: end_frame returns with the file committed), each gathering mode forced
// (rearrange; rearrange with every piece as a message, as between nodes; direct), io_form 2
// (serial netCDF, CDF-2 so that the bytes are the same as every other method's), and io_form 0
// (the null backend: the library alone).
//
// Each repetition constructs a fresh Writer (untimed, as a model does once per run), writes
// `--warmup` untimed files so that the staging buffers are allocated and touched as they are in a
// model's steady state, and the untimed frames before the timed one when a file holds several
// (--frames-per-file); then the timed frame: begin_frame (file create + define when it opens
// the file), put of every field, end_frame (pack, the collective write), and the wait until the
// file carries its final name (Writer::wait_for_files): the whole cost of the file, comparable
// with the raw writes. Phases: `blocked` (begin_frame .. end_frame: what the model waits for) and
// `final_name` (from the end of the frame until the file had its final name).
// With --fsync the Writer's fsync_before_rename is on (each writer fsyncs what it wrote before the
// rename); without it, it is off, so that no method syncs.
#include <algorithm>
#include <filesystem>

#include "method.hpp"
#include "nwpio/wrf_date.hpp"
#include "nwpio/writer.hpp"
#include "verify_written.hpp"

namespace nwpio::bench {
namespace {

constexpr const char* kStartDate = "2019-06-01_00:00:00";

class WriterMethod final : public Method {
 public:
  WriterMethod(std::string name, IoForm io_form, GatherMode gather, ReorderMode reorder = ReorderMode::Auto,
               bool shared_memory = true, std::string quantize = {}, bool write_behind = true)
      : name_(std::move(name)), io_form_(io_form), gather_(gather), reorder_(reorder), shared_memory_(shared_memory),
        quantize_(std::move(quantize)), write_behind_(write_behind) {}

  std::string name() const override { return name_; }
  bool writes_netcdf() const override { return io_form_ != IoForm::Null; }

  void prepare(const CaseContext& ctx, int) override {
    OutputOptions o;
    o.output_dir = ctx.dir;
    o.io_form = io_form_;
    o.gather = gather_;
    o.reorder = reorder_;
    o.frames_per_file = ctx.options->frames_per_file;
    o.write_behind = write_behind_;
    o.use_netcdf_classic = true;  // io_form 2: CDF-2, the same bytes as the other methods
    o.start_date = kStartDate;
    o.history_interval_seconds = 3600;
    o.print_timing = false;
    o.fsync_before_rename = ctx.options->fsync && io_form_ != IoForm::Null;
    if (ctx.options->round_mb > 0) o.max_round_bytes = static_cast<std::int64_t>(ctx.options->round_mb * 1e6);
    o.shared_memory_exchange = shared_memory_;
    o.quantize.text = quantize_;  // io_form 13: lossy quantization of the float fields
    o.hints.report = HintReport::Off;
    o.hints.profile_file = ctx.options->hints_file;
    o.hints.profile = ctx.options->hints_profile;
    for (const auto& h : ctx.options->hints) o.hints.overrides[h.substr(0, h.find('='))] = h.substr(h.find('=') + 1);
    writer_ = std::make_unique<Writer>(*ctx.decomposition, ctx.bench_case->schema, o);
    const std::int64_t start = wrf::date_to_seconds(kStartDate);
    const int per_file = ctx.options->frames_per_file;
    int frame = 0;
    for (int w = 0; w < ctx.options->warmup; ++w) {
      for (int k = 0; k < per_file; ++k) write_frame(ctx, wrf::seconds_to_date(start + 3600 * frame++));
      writer_->wait_for_files();
      if (ctx.rank == 0) remove_last_file(ctx);
    }
    for (int k = 0; k + 1 < per_file; ++k) write_frame(ctx, wrf::seconds_to_date(start + 3600 * frame++));
    timed_date_ = wrf::seconds_to_date(start + 3600 * frame);
  }

  void run(const CaseContext& ctx, int) override {
    write_frame(ctx, timed_date_);
    writer_->wait_for_files();
  }

  RunOutcome finish(const CaseContext& ctx) override {
    RunOutcome out;
    const FrameStats& fs = writer_->statistics().frames.back();
    out.bytes = fs.bytes;
    if (io_form_ != IoForm::Null) out.file = (std::filesystem::path(ctx.dir) / fs.file).string();
    out.phases = {{"define", fs.define_seconds},  {"reorder", fs.reorder_seconds}, {"exchange", fs.exchange_seconds},
                  {"check", fs.check_seconds},    {"wait", fs.wait_seconds},        {"close", fs.close_seconds},
                  {"total", fs.total_seconds},    {"blocked", fs.total_seconds},
                  {"final_name", std::max(0.0, fs.committed_after_seconds)}};
    out.buffer_bytes = fs.peak_buffer_bytes;
    const Statistics& st = writer_->statistics();
    out.mode = st.backend + (io_form_ == IoForm::NetcdfSerial ? std::string() : " " + st.gather + "/" + st.reorder) +
               ", " + std::to_string(st.writer_ranks) + " writer rank(s)";
    writer_->close();
    writer_.reset();
    if (!out.file.empty()) verify_written(ctx, name_, out.file);  // every repetition
    return out;
  }

 private:
  void write_frame(const CaseContext& ctx, const std::string& date) {
    writer_->begin_frame(date);
    agree_step(ctx.comm, [&] { ctx.model->put_all(*writer_); });
    writer_->end_frame();
  }

  void remove_last_file(const CaseContext& ctx) {
    if (io_form_ == IoForm::Null) return;
    std::error_code ec;
    std::filesystem::remove(std::filesystem::path(ctx.dir) / writer_->statistics().frames.back().file, ec);
  }

  std::string name_;
  IoForm io_form_;
  GatherMode gather_;
  ReorderMode reorder_;
  bool shared_memory_;
  std::string quantize_;
  bool write_behind_ = true;
  std::unique_ptr<Writer> writer_;
  std::string timed_date_;
};

}  // namespace

std::unique_ptr<Method> make_writer_method(const std::string& name) {
  if (name == "nwpio-io11") return std::make_unique<WriterMethod>(name, IoForm::Pnetcdf, GatherMode::Auto);
  if (name == "nwpio-io11-sync") {
    return std::make_unique<WriterMethod>(name, IoForm::Pnetcdf, GatherMode::Auto, ReorderMode::Auto, true, "", false);
  }
  if (name == "nwpio-io11-rearrange") return std::make_unique<WriterMethod>(name, IoForm::Pnetcdf, GatherMode::Rearrange);
  if (name == "nwpio-io11-messages") {
    return std::make_unique<WriterMethod>(name, IoForm::Pnetcdf, GatherMode::Rearrange, ReorderMode::Auto, false);
  }
  if (name == "nwpio-io11-direct") return std::make_unique<WriterMethod>(name, IoForm::Pnetcdf, GatherMode::Direct);
  if (name == "nwpio-io11-direct-datatype") {
    return std::make_unique<WriterMethod>(name, IoForm::Pnetcdf, GatherMode::Direct, ReorderMode::Datatype);
  }
  if (name == "nwpio-io2") return std::make_unique<WriterMethod>(name, IoForm::NetcdfSerial, GatherMode::Auto);
  if (name == "null") return std::make_unique<WriterMethod>(name, IoForm::Null, GatherMode::Auto);
  // io_form 13: deflate 2 + shuffle (WRF's), and the same with GranularBR at 3 significant digits.
  if (name == "nwpio-io13") return std::make_unique<WriterMethod>(name, IoForm::NetcdfParallel, GatherMode::Auto);
  if (name == "nwpio-io13-gbr3") {
    return std::make_unique<WriterMethod>(name, IoForm::NetcdfParallel, GatherMode::Auto, ReorderMode::Auto, true, "granularbr=3");
  }
  return nullptr;
}

}  // namespace nwpio::bench
