/* test_tune_input.c - what a tuning source may hold and what is refused:
 * only regular files up to the cap (a FIFO, a directory, a device, a socket
 * or a larger file is refused with the path and what it is, without
 * blocking or reading it), NUL bytes at their line and column, control
 * bytes escaped in every message, and numbers out of range named as such
 * with their limit. */
#include "unit.h"
#include "../../tuning/tuning.h"

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

/* The file is refused: -1, an empty table, a message naming the path. */
static void refused(const char *path, const char *what)
{
    char want[512];
    ck_assert_msg(tune_parse_file(path, &t, err, sizeof err) == -1, "%s accepted", path);
    ck_assert_int_eq(t.n, 0);
    snprintf(want, sizeof want, "%s: %s", path, what);
    says(want);
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

static int printable(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
            return 0;
    return 1;
}

static void escaped(const char *text, const char *source, const char *want)
{
    ck_assert_int_eq(tune_parse(text, source, &t, err, sizeof err), -1);
    ck_assert_msg(printable(err), "raw control bytes in '%s'", err);
    says(want);
}

START_TEST(control_bytes_are_escaped_in_every_message)
{
    escaped("bcast @\x1b[31mred", "COLLSHIM_TUNE", "COLLSHIM_TUNE:1:8: unknown algorithm '\\x1b[31mred' for bcast");
    escaped("b\x1b[0mx\x07 @vendor", "t", "unknown collective 'b\\x1b[0mx\\x07'");
    escaped("bcast 5\x01-9 @vendor", "t", "expected '-', k, m or g, found '\\x01'");
    escaped("bcast s\x9bg=5 @vendor", "t", "unknown parameter 's\\x9bg'");
    escaped("bcast seg=\x1b @vendor", "t", "after 'seg=', found '\\x1b'");
    escaped("bcast np=\x1b @vendor", "t", "expected a number, found '\\x1b'");
    escaped("bcast a\\b @vendor", "t", "found 'a\\\\b'");
    escaped("bcast @x", "src\x1b[2J", "src\\x1b[2J:1:8: unknown algorithm 'x'");
    /* The path of a file, in every message about it. */
    char path[128];
    snprintf(path, sizeof path, "%s/\x1b[2Jtable", dir);
    ck_assert_int_eq(tune_parse_file(path, &t, err, sizeof err), -1);
    ck_assert_msg(printable(err), "raw control bytes in '%s'", err);
    says("/\\x1b[2Jtable: cannot open tuning file");
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    ck_assert_int_eq(tune_parse_file(path, &t, err, sizeof err), -1);
    ck_assert_msg(printable(err), "raw control bytes in '%s'", err);
    says("/\\x1b[2Jtable: is a FIFO");
    unlink(path);
    write_file("\x1b[2Jtable", "bcast @\x1b");
    ck_assert_int_eq(tune_parse_file(path, &t, err, sizeof err), -1);
    ck_assert_msg(printable(err), "raw control bytes in '%s'", err);
    says("/\\x1b[2Jtable:1:8: unknown algorithm '\\x1b'");
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

static void out_of_range(const char *text, const char *where, const char *what)
{
    ck_assert_int_eq(tune_parse(text, "test", &t, err, sizeof err), -1);
    ck_assert_msg(strncmp(err, where, strlen(where)) == 0, "'%s' does not start with '%s'", err, where);
    says(what);
    ck_assert_int_eq(t.n, 0);
}

/* Each numeric field, by digits and by suffix multiplication. */
START_TEST(overflows_are_named_with_their_limit)
{
    const char *bytes = "is out of range: byte counts must lie in 0..2^64-1";
    const char *np = "is out of range: communicator sizes must lie in 1..2^31-1";
    out_of_range("bcast 99999999999999999999k-inf @vendor", "test:1:7:", "'99999999999999999999k' is out of range: byte counts must lie in 0..2^64-1");
    out_of_range("bcast 0-18446744073709551616 @vendor", "test:1:9:", bytes);
    out_of_range("bcast 17179869184g-inf @vendor", "test:1:7:", bytes);
    out_of_range("bcast 0-18014398509481984k @vendor", "test:1:9:", bytes);
    out_of_range("bcast np=99999999999999999999 @vendor", "test:1:10:", np);
    out_of_range("bcast np=2-2147483648 @vendor", "test:1:12:", np);
    out_of_range("bcast np=2g @vendor", "test:1:10:", np);
    out_of_range("bcast np=0 @vendor", "test:1:10:", np);
    out_of_range("bcast @vendor seg=99999999999999999999", "test:1:19:",
                 "'seg=99999999999999999999' is out of range: seg must be at least 1 byte and at most 2^64-1");
    out_of_range("bcast @vendor seg=17179869184g", "test:1:19:", "at most 2^64-1");
    out_of_range("bcast @vendor outstanding=99999999999999999999", "test:1:27:",
                 "outstanding must lie in 1..1000000");
    out_of_range("bcast @vendor outstanding=1m", "test:1:27:", "'outstanding=1m' is out of range");
    /* The largest values that fit are accepted. */
    ck_assert_int_eq(tune_parse("bcast np=1-2147483647 0-17179869183g @vendor seg=18446744073709551615 "
                                "outstanding=1000000", "test", &t, err, sizeof err), 0);
    ck_assert_int_eq(t.rules[0].np_hi, 2147483647);
    ck_assert_uint_eq(t.rules[0].bytes_hi, 17179869183ull << 30);
    ck_assert_uint_eq(t.rules[0].params.seg, UINT64_MAX);
    ck_assert_int_eq(t.rules[0].params.outstanding, 1000000);
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
    tcase_add_test(tc, control_bytes_are_escaped_in_every_message);
    tcase_add_test(tc, escape_cuts_long_input_and_fits_any_buffer);
    tcase_add_test(tc, overflows_are_named_with_their_limit);
    suite_add_tcase(s, tc);
    return s;
}
