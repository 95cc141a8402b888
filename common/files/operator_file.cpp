#include "common/files/operator_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>

#include "common/crypto/secrets.hpp"

namespace syncml::common {
namespace {

[[noreturn]] void refuse(const std::string& path, const std::string& why) { throw file_refused(path + ": " + why); }

std::string error_text(int error) { return std::strerror(error); }

// Closes the descriptor when a check fails halfway.
class owned_fd {
  public:
    explicit owned_fd(int fd) : fd_(fd) {}
    ~owned_fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    owned_fd(const owned_fd&) = delete;
    owned_fd& operator=(const owned_fd&) = delete;
    int get() const { return fd_; }
    int release() { return std::exchange(fd_, -1); }

  private:
    int fd_;
};

std::string kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISLNK(mode)) return "a symbolic link";
    if (S_ISFIFO(mode)) return "a fifo";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    if (S_ISREG(mode)) return "a regular file";
    return "an unknown kind of file";
}

struct place {
    std::string directory;
    std::string name;
};

place place_of(const std::string& path) {
    const std::filesystem::path p(path);
    std::string name = p.filename().string();
    if (name.empty() || name == "." || name == "..") refuse(path, "names no file (it ends in a directory)");
    const std::string directory = p.parent_path().string();
    return {directory.empty() ? "." : directory, std::move(name)};
}

// Opens the directory an output goes into and applies the ownership rule; sets `shared` when others may write to it
// (allowed with the sticky bit only, which keeps them from renaming or removing our files).
int open_output_directory(const std::string& path, const std::string& directory, bool& shared) {
    owned_fd fd(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (fd.get() < 0) refuse(path, "cannot open its directory " + directory + ": " + error_text(errno));
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) refuse(path, "cannot inspect its directory " + directory);
    if (st.st_uid != ::geteuid() && st.st_uid != 0) {
        refuse(path, "its directory " + directory + " belongs to another user (uid " + std::to_string(st.st_uid) +
                         "); write into a directory of your own");
    }
    shared = (st.st_mode & (S_IWGRP | S_IWOTH)) != 0;
    if (shared && (st.st_mode & S_ISVTX) == 0) {
        refuse(path, "its directory " + directory +
                         " is writable by group or others without the sticky bit; write into a directory of your own");
    }
    return fd.release();
}

// An existing target is replaced only when it is a regular file in a directory nobody else writes to.
void check_existing_target(const std::string& path, int directory_fd, const std::string& name, bool shared) {
    struct stat st {};
    if (::fstatat(directory_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT) return;
        refuse(path, "cannot inspect it: " + error_text(errno));
    }
    if (!S_ISREG(st.st_mode)) refuse(path, "exists and is " + kind_of(st.st_mode) + "; remove it or choose a new name");
    if (shared) refuse(path, "exists already in a directory others may write to; choose a new name");
}

}  // namespace

input_file::input_file(const std::string& path) : path_(path) {
    // O_NONBLOCK: opening a fifo must not wait for a writer before fstat refuses it.
    owned_fd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    if (fd.get() < 0) {
        if (errno == ELOOP) refuse(path, "is a symbolic link (links are not followed; name the file itself)");
        if (errno == ENXIO) refuse(path, "is a socket, not a regular file");
        refuse(path, "cannot open it: " + error_text(errno));
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) refuse(path, "cannot inspect it: " + error_text(errno));
    if (!S_ISREG(st.st_mode)) refuse(path, "is " + kind_of(st.st_mode) + ", not a regular file");
    ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
    fd_ = fd.release();
}

input_file::~input_file() { ::close(fd_); }

std::string input_file::read_all() {
    std::string text;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd_, buffer, sizeof buffer);
        if (n == 0) return text;
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) refuse(path_, "cannot read it: " + error_text(errno));
        text.append(buffer, static_cast<std::size_t>(n));
    }
}

std::string input_file::name_for_child() const {
    return "/proc/" + std::to_string(::getpid()) + "/fd/" + std::to_string(fd_);
}

std::string read_input_file(const std::string& path) { return input_file(path).read_all(); }

std::vector<std::string> input_directory_names(const std::string& path) {
    // Without O_DIRECTORY, which would answer a link with ENOTDIR; O_NONBLOCK as for an input file.
    owned_fd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    if (fd.get() < 0) {
        if (errno == ENOENT) return {};
        if (errno == ELOOP) refuse(path, "is a symbolic link (links are not followed; name the directory itself)");
        refuse(path, "cannot open the directory: " + error_text(errno));
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0 || !S_ISDIR(st.st_mode))
        refuse(path, "is " + kind_of(st.st_mode) + ", not a directory");
    DIR* directory = ::fdopendir(fd.release());
    if (directory == nullptr) refuse(path, "cannot read the directory: " + error_text(errno));
    std::vector<std::string> names;
    while (const dirent* entry = ::readdir(directory)) {
        const std::string name = entry->d_name;
        if (name != "." && name != "..") names.push_back(name);
    }
    ::closedir(directory);
    std::sort(names.begin(), names.end());
    return names;
}

output_file::output_file(const std::string& target) : target_(target) {
    auto [directory, name] = place_of(target);
    name_ = std::move(name);
    directory_fd_ = open_output_directory(target, directory, shared_directory_);
    try {
        check_existing_target(target, directory_fd_, name_, shared_directory_);
        // A fresh name each time, created exclusively: a file someone prepared under a predictable name (the old
        // "<target>.partial") is never written into. The target's name is cut so that the whole fits NAME_MAX.
        for (int attempt = 0; fd_ < 0; ++attempt) {
            temporary_name_ = "." + name_.substr(0, 200) + "." + random_nonce() + ".partial";
            fd_ = ::openat(directory_fd_, temporary_name_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                           0600);
            if (fd_ < 0 && (errno != EEXIST || attempt == 10)) {
                refuse(target, "cannot create a file in " + directory + ": " + error_text(errno));
            }
        }
        temporary_path_ = (std::filesystem::path(directory) / temporary_name_).string();
    } catch (...) {
        ::close(directory_fd_);
        throw;
    }
}

output_file::~output_file() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_ && !temporary_name_.empty()) ::unlinkat(directory_fd_, temporary_name_.c_str(), 0);
    ::close(directory_fd_);
}

void output_file::write(std::string_view text) {
    while (!text.empty()) {
        const ssize_t n = ::write(fd_, text.data(), text.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) refuse(target_, "cannot write it: " + error_text(errno));
        text.remove_prefix(static_cast<std::size_t>(n));
    }
}

void output_file::commit() {
    if (::fsync(fd_) != 0) refuse(target_, "cannot write it: " + error_text(errno));
    ::close(std::exchange(fd_, -1));
    // In a shared directory the target is created, never replaced: what exists there may be someone else's.
    const unsigned flags = shared_directory_ ? RENAME_NOREPLACE : 0;
    if (::renameat2(directory_fd_, temporary_name_.c_str(), directory_fd_, name_.c_str(), flags) != 0) {
        refuse(target_, "cannot put it in place: " + error_text(errno));
    }
    committed_ = true;
}

void write_output_file(const std::string& path, std::string_view text) {
    output_file file(path);
    file.write(text);
    file.commit();
}

void make_output_directory(const std::string& path) {
    const auto [directory, name] = place_of(path);
    if (::access(directory.c_str(), F_OK) != 0 && errno == ENOENT) make_output_directory(directory);
    bool shared = false;
    const owned_fd parent(open_output_directory(path, directory, shared));
    if (::mkdirat(parent.get(), name.c_str(), 0700) == 0) return;
    if (errno != EEXIST) refuse(path, "cannot create the directory: " + error_text(errno));
    struct stat st {};
    if (::fstatat(parent.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode)) {
        refuse(path, "exists and is " + kind_of(st.st_mode) + ", not a directory of its own");
    }
    // What goes into it follows the rule of any output's directory.
    bool inner_shared = false;
    ::close(open_output_directory(path, path, inner_shared));
}

}  // namespace syncml::common
