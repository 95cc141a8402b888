#pragma once
// Files that an operator names on the command line (user import and export, the CSV of users, a password file,
// backup and restore). The path comes from a person, but what lies at it may have been planted by someone else: a
// link to the server's secret key, a world-writable directory where another user waits to swap a file. So every such
// file goes through here, with one set of rules (README.md, "Files the admin commands read and write"):
// - an input is opened without following a link in its last component and must be a regular file (not a fifo, a
//   directory or a device);
// - an output is written under a fresh name created exclusively (O_EXCL, O_NOFOLLOW, mode 0600) next to its target
//   and renamed onto it once complete, so that a failure leaves nothing behind and a planted file is never reused;
// - the directory of an output must be owned by this process's user or by root, and writable by nobody else unless
//   it has the sticky bit; in such a shared directory the target must not exist yet (it is created exclusively).
// The last component of an output must not be a link, a directory or any other non-regular file. Links in the
// directories above are followed: the directory they lead to is what gets checked (and the kernel's
// protected_symlinks refuses the planted ones in sticky directories).

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace syncml::common {

// "<path>: <why>": the operator's file was refused (or could not be read or written).
class file_refused : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// An input file, open for reading. Throws file_refused.
class input_file {
  public:
    explicit input_file(const std::string& path);
    ~input_file();
    input_file(const input_file&) = delete;
    input_file& operator=(const input_file&) = delete;

    std::string read_all();
    // A name of the opened file for a child process: /proc/<pid>/fd/<n>. Opening it reaches the file this object
    // checked, whatever the path names by then.
    std::string name_for_child() const;

  private:
    std::string path_;
    int fd_ = -1;
};

// The whole contents of an input file. Throws file_refused.
std::string read_input_file(const std::string& path);

// The names in an input directory, sorted (without "." and ".."); none when it does not exist. The directory is
// opened without following a link in its last component. Throws file_refused.
std::vector<std::string> input_directory_names(const std::string& path);

// An output file being written under a temporary name. commit() renames it onto the target; destroyed without
// commit() (an error on the way), it is removed. Throws file_refused.
class output_file {
  public:
    explicit output_file(const std::string& target);
    ~output_file();
    output_file(const output_file&) = delete;
    output_file& operator=(const output_file&) = delete;

    // The temporary file's path, for a child process that writes the contents (pg_dump --file).
    const std::string& temporary_path() const { return temporary_path_; }
    void write(std::string_view text);
    void commit();

  private:
    std::string target_;
    std::string name_;            // of the target, in directory_fd_
    std::string temporary_name_;  // in directory_fd_
    std::string temporary_path_;
    int directory_fd_ = -1;
    int fd_ = -1;
    bool shared_directory_ = false;
    bool committed_ = false;
};

// Writes text to a new output file at path (see output_file). Throws file_refused.
void write_output_file(const std::string& path, std::string_view text);

// A directory for outputs: created (mode 0700) under the same rules as an output file, or an existing directory
// (not a link) that this user or root owns and nobody else may write to. Throws file_refused.
void make_output_directory(const std::string& path);

}  // namespace syncml::common
