/* test_tune_input.c - what a tuning file may be and what is refused: only
 * regular files up to the cap (a FIFO, a directory, a device, a socket or
 * a larger file is refused with the path and what it is, without blocking
 * or reading it), NUL bytes at their line and column, the path escaped in
 * every message, and the escaping itself. Control bytes and overflows in
 * the text are in test_grammar.c. */
#include "tests/unit/unit.h"
#include "tuning/tuning.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static struct tune_table t;
static char err[4096];
static char dir[64];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/collshim-input-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    tune_free(&t);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static const char *in_dir(const char *name)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

/* A file of the test dir holding len bytes: unit (n bytes) repeated. */
static const char *write_repeated(const char *name, const char *unit, size_t n, size_t len)
{
    const char *path = in_dir(name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    for (size_t done = 0, part; done < len; done += part) {
        part = len - done < n ? len - done : n;
        ck_assert_uint_eq(fwrite(unit, 1, part, f), part);
    }
    ck_assert_int_eq(fclose(f), 0);
    return path;
}

static const char *write_file(const char *name, const char *text)
{
    return write_repeated(name, text, strlen(text), strlen(text));
}

static void says(const char *what)
{
    ck_assert_msg(strstr(err, what) != NULL, "'%s' does not say '%s'", err, what);
}

/* The file is refused: -1, an empty table, a printable message saying want. */
static void file_says(const char *path, const char *want)
{
    ck_assert_msg(tune_parse_file(path, &t, err, sizeof err) == -1, "%s accepted", path);
    ck_assert_int_eq(t.n, 0);
    ck_assert_msg(unit_printable(err), "raw control bytes in '%s'", err);
    says(want);
}

/* The same, the message naming the path (printable) and what it is. */
static void refused(const char *path, const char *what)
{
    char want[512];
    snprintf(want, sizeof want, "%s: %s", path, what);
    file_says(path, want);
}

START_TEST(a_fifo_is_refused_without_blocking)
{
    const char *path = in_dir("fifo");
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    refused(path, "is a FIFO (named pipe), not a regular file; a tuning file must be a regular file of at most 1 MiB");
}
END_TEST

START_TEST(a_directory_is_refused)
{
    refused(dir, "is a directory, not a regular file");
    ck_assert_int_eq(symlink(dir, in_dir("link")), 0);
    refused(in_dir("link"), "is a directory");
}
END_TEST

START_TEST(devices_are_refused_unread)
{
    refused("/dev/zero", "is a character device, not a regular file");
    refused("/dev/null", "is a character device");
}
END_TEST

START_TEST(a_socket_is_refused)
{
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    ck_assert_int_ge(fd, 0);
    ck_assert_uint_lt(strlen(in_dir("socket")), sizeof addr.sun_path);
    memcpy(addr.sun_path, in_dir("socket"), strlen(in_dir("socket")) + 1);
    ck_assert_int_eq(bind(fd, (struct sockaddr *)&addr, sizeof addr), 0);
    refused(in_dir("socket"), "is a socket");
    close(fd);
}
END_TEST

/* Comment lines up to the cap are a valid (empty) table; one byte more is
 * refused with the size and the cap. */
START_TEST(files_up_to_the_cap_are_read_larger_ones_refused)
{
    const char *line = "# a comment line of a tuning table, 48 bytes ..\n";
    const char *path = write_repeated("at_cap", line, strlen(line), TUNE_FILE_MAX_BYTES);
    ck_assert_msg(tune_parse_file(path, &t, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(t.n, 0);
    path = write_repeated("over_cap", line, strlen(line), TUNE_FILE_MAX_BYTES + 1);
    refused(path, "1048577 bytes, more than the 1 MiB (1048576 bytes) a tuning file may hold");
    path = write_file("empty", "");
    ck_assert_int_eq(tune_parse_file(path, &t, err, sizeof err), 0);
}
END_TEST

START_TEST(missing_and_unreadable_files_say_why)
{
    refused("/nonexistent/table", "cannot open tuning file: No such file or directory");
    const char *file = write_file("table", "bcast @vendor\n");
    char below[256];
    snprintf(below, sizeof below, "%s/below", file);
    refused(below, "cannot open tuning file: Not a directory");
    if (geteuid() != 0) { /* root reads anything */
        ck_assert_int_eq(chmod(file, 0), 0);
        refused(file, "cannot open tuning file: Permission denied");
    }
}
END_TEST

START_TEST(a_nul_byte_is_reported_at_its_line_and_column)
{
    const char *path = write_repeated("nul", "bcast @vendor\nallreduce \0@vendor\n", 33, 33);
    char want[256];
    ck_assert_int_eq(tune_parse_file(path, &t, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:2:11: a NUL byte", path);
    ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "%s", err);
    ck_assert_int_eq(tune_parse_text("\0", 1, "text", &t, err, sizeof err), -1);
    ck_assert_str_eq(err, "text:1:1: a NUL byte: a tuning table is text");
}
END_TEST

/* The path of a file is escaped in every message about it. */
START_TEST(control_bytes_in_a_path_are_escaped)
{
    const char *path = in_dir("\x1b[2Jtable");
    file_says(path, "/\\x1b[2Jtable: cannot open tuning file");
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    file_says(path, "/\\x1b[2Jtable: is a FIFO");
    unlink(path);
    write_file("\x1b[2Jtable", "bcast @\x1b");
    file_says(path, "/\\x1b[2Jtable:1:8: unknown algorithm '\\x1b'");
}
END_TEST

START_TEST(escape_cuts_long_input_and_fits_any_buffer)
{
    char out[16];
    ck_assert_uint_eq(tune_escape("abc", 3, 60, out, sizeof out), 3);
    ck_assert_str_eq(out, "abc");
    tune_escape("\x1b\x7f\xff", 3, 60, out, sizeof out);
    ck_assert_str_eq(out, "\\x1b\\x7f\\xff");
    tune_escape("abcdefgh", 8, 4, out, sizeof out);
    ck_assert_str_eq(out, "abcd...");
    tune_escape("\x01\x02\x03\x04\x05", 5, 60, out, sizeof out);
    ck_assert_str_eq(out, "\\x01\\x02\\x03...");
    for (size_t len = 1; len < 8; len++) {
        memset(out, 'Z', sizeof out);
        ck_assert_uint_lt(tune_escape("\x1b\x1b\x1b", 3, 60, out, len), len);
        ck_assert_uint_lt(strlen(out), len);
    }
}
END_TEST

Suite *tune_input_suite(void)
{
    Suite *s = suite_create("tune_input");
    TCase *tc = tcase_create("input");
    tcase_add_checked_fixture(tc, setup, teardown);
    /* A file that is read instead of refused (/dev/zero) or a FIFO that
     * blocks ends as a timeout, not a hang or an exhausted machine. */
    tcase_set_timeout(tc, 4);
    tcase_add_test(tc, a_fifo_is_refused_without_blocking);
    tcase_add_test(tc, a_directory_is_refused);
    tcase_add_test(tc, devices_are_refused_unread);
    tcase_add_test(tc, a_socket_is_refused);
    tcase_add_test(tc, files_up_to_the_cap_are_read_larger_ones_refused);
    tcase_add_test(tc, missing_and_unreadable_files_say_why);
    tcase_add_test(tc, a_nul_byte_is_reported_at_its_line_and_column);
    tcase_add_test(tc, control_bytes_in_a_path_are_escaped);
    tcase_add_test(tc, escape_cuts_long_input_and_fits_any_buffer);
    suite_add_tcase(s, tc);
    return s;
}
