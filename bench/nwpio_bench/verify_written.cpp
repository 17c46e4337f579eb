#include "verify_written.hpp"

#include "workload_real.hpp"

namespace nwpio::bench {

void verify_written(const CaseContext& ctx, const std::string& method, const std::string& path) {
  agree_step(ctx.comm, [&] {
    if (ctx.rank != 0) return;
    const synthetic::VerifyResult v = ctx.bench_case->real_fields
                                          ? verify_real_file(path, ctx.bench_case->schema, real_file_tolerance(method))
                                          : synthetic::verify_file(path, ctx.bench_case->schema, 0);
    if (!v.ok) throw Error(ErrorKind::Io, method + " wrote a wrong file " + path + ": " + v.summary());
  });
}

}  // namespace nwpio::bench
