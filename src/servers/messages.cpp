#include "servers/messages.hpp"

#include <climits>
#include <algorithm>
#include <chrono>
#include <thread>

#include "nwpio/error.hpp"
#include "util/mpi_call.hpp"

namespace nwpio::detail {

OwnedSends::~OwnedSends() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  try {
    wait_all();
  } catch (...) {
  }
}

void OwnedSends::send(std::string bytes, int dest, int tag, MPI_Comm comm) {
  if (bytes.size() > static_cast<std::size_t>(INT_MAX)) {
    throw Error(ErrorKind::Unsupported, "I/O server message of " + std::to_string(bytes.size()) + " bytes is over INT_MAX");
  }
  Item item{std::make_unique<std::string>(std::move(bytes)), MPI_REQUEST_NULL};
  mpi_check(MPI_Isend(item.bytes->data(), static_cast<int>(item.bytes->size()), MPI_BYTE, dest, tag, comm, &item.request),
            "MPI_Isend(I/O server message)");
  items_.push_back(std::move(item));
}

void OwnedSends::progress() {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < items_.size(); ++i) {
    int done = 0;
    mpi_check(MPI_Test(&items_[i].request, &done, MPI_STATUS_IGNORE), "MPI_Test(I/O server message)");
    if (!done) items_[kept++] = std::move(items_[i]);
  }
  items_.resize(kept);
}

void OwnedSends::wait_all() {
  for (Item& item : items_) mpi_check(MPI_Wait(&item.request, MPI_STATUS_IGNORE), "MPI_Wait(I/O server message)");
  items_.clear();
}

void OwnedSends::release() noexcept {
  for (Item& item : items_) {
    if (item.request != MPI_REQUEST_NULL) MPI_Request_free(&item.request);
    (void)item.bytes.release();
  }
  items_.clear();
}

namespace {

std::string receive_matched(MPI_Message& message, MPI_Status& status) {
  int count = 0;
  mpi_check(MPI_Get_count(&status, MPI_BYTE, &count), "MPI_Get_count(I/O server message)");
  std::string bytes(static_cast<std::size_t>(count), '\0');
  mpi_check(MPI_Mrecv(bytes.data(), count, MPI_BYTE, &message, MPI_STATUS_IGNORE), "MPI_Mrecv(I/O server message)");
  return bytes;
}

}  // namespace

std::string receive_message(int source, int tag, MPI_Comm comm) {
  MPI_Message message = MPI_MESSAGE_NULL;
  MPI_Status status;
  mpi_check(MPI_Mprobe(source, tag, comm, &message, &status), "MPI_Mprobe(I/O server message)");
  return receive_matched(message, status);
}

std::optional<std::string> try_receive_message(int source, int tag, MPI_Comm comm) {
  MPI_Message message = MPI_MESSAGE_NULL;
  MPI_Status status;
  int flag = 0;
  mpi_check(MPI_Improbe(source, tag, comm, &flag, &message, &status), "MPI_Improbe(I/O server message)");
  if (!flag) return std::nullopt;
  return receive_matched(message, status);
}

void Backoff::pause() noexcept {
  if (++polls_ <= 200) return;  // a frame's messages follow its control closely: poll first
  std::this_thread::sleep_for(std::chrono::microseconds(sleep_us_));
  sleep_us_ = std::min(1000, sleep_us_ * 2);
}

std::string receive_message_idle(int source, int tag, MPI_Comm comm) {
  Backoff b;
  for (;;) {
    if (auto m = try_receive_message(source, tag, comm)) return std::move(*m);
    b.pause();
  }
}

void wait_all_idle(std::vector<MPI_Request>& requests, const char* what) {
  Backoff b;
  for (;;) {
    int done = 0;
    mpi_check(MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done, MPI_STATUSES_IGNORE), what);
    if (done) return;
    b.pause();
  }
}

}  // namespace nwpio::detail
