// A file system of a few kilobytes, to run out of space on: a tmpfs mounted
// at a fresh directory for the helper's life. Mounting needs root (CI runs
// as root); where it is refused, ok() is false and a test skips.
#pragma once

#include <sys/mount.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"

namespace salta::testing {

class SmallDisk {
 public:
  explicit SmallDisk(int kib) {
    static int made = 0;
    dir_ = absl::StrCat(std::filesystem::temp_directory_path().string(), "/salta_small_disk_",
                        getpid(), "_", made++);
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    mounted_ = !ec && ::mount("tmpfs", dir_.c_str(), "tmpfs", 0,
                              absl::StrCat("size=", kib, "k").c_str()) == 0;
  }
  ~SmallDisk() {
    if (mounted_) ::umount2(dir_.c_str(), MNT_DETACH);
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  SmallDisk(const SmallDisk&) = delete;
  SmallDisk& operator=(const SmallDisk&) = delete;

  bool ok() const { return mounted_; }
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  bool mounted_ = false;
};

}  // namespace salta::testing
