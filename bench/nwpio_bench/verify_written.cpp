#include "verify_written.hpp"

namespace nwpio::bench {

void verify_written(const CaseContext& ctx, const std::string& method, const std::string& path) {
  agree_step(ctx.comm, [&] {
    if (ctx.rank != 0) return;
    const synthetic::VerifyResult v = synthetic::verify_file(path, ctx.bench_case->schema, 0);
    if (!v.ok) throw Error(ErrorKind::Io, method + " wrote a wrong file " + path + ": " + v.summary());
  });
}

}  // namespace nwpio::bench
