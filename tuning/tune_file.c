/* tune_file.c - reading the file of COLLSHIM_TUNING_FILE. Every rank reads
 * it inside MPI_Init, so nothing here may block or grow without bound: only
 * a regular file of at most TUNE_FILE_MAX_BYTES is read. A FIFO, a
 * directory, a device or a socket is refused before it is opened (opening
 * some devices has effects) and again after (the path may have changed in
 * between; O_NONBLOCK keeps a FIFO from blocking that open); the read loop
 * never takes more than the cap and one byte. */
#include "tuning/tuning.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CAP_TEXT "1 MiB (1048576 bytes)"
_Static_assert(TUNE_FILE_MAX_BYTES == 1048576, "CAP_TEXT states the cap");

static const char *file_kind(mode_t mode)
{
    return S_ISDIR(mode)    ? "a directory"
           : S_ISFIFO(mode) ? "a FIFO (named pipe)"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISSOCK(mode) ? "a socket"
                            : "not a regular file";
}

/* A stat result a tuning file may have; otherwise -1 and the reason. */
static int check_stat(const struct stat *st, const char *path, char *err, size_t errlen)
{
    if (!S_ISREG(st->st_mode)) {
        snprintf(err, errlen, "%s: is %s, not a regular file; a tuning file must be a regular file of at most " CAP_TEXT,
                 path, file_kind(st->st_mode));
        return -1;
    }
    if (st->st_size > TUNE_FILE_MAX_BYTES) {
        snprintf(err, errlen, "%s: %lld bytes, more than the " CAP_TEXT " a tuning file may hold",
                 path, (long long)st->st_size);
        return -1;
    }
    return 0;
}

/* Up to cap bytes of fd into buf; -1 with errno on a read error. */
static ssize_t read_bounded(int fd, char *buf, size_t cap)
{
    size_t got = 0;
    while (got < cap) {
        ssize_t n = read(fd, buf + got, cap - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        got += (size_t)n;
    }
    return (ssize_t)got;
}

/* The open file's bytes, NUL-terminated, in a new buffer. */
static int read_text(int fd, const char *path, char **text, size_t *len, char *err, size_t errlen)
{
    char *buf = malloc(TUNE_FILE_MAX_BYTES + 1); /* the cap, and a byte to see more */
    if (!buf) {
        snprintf(err, errlen, "%s: out of memory reading the tuning file", path);
        return -1;
    }
    ssize_t got = read_bounded(fd, buf, TUNE_FILE_MAX_BYTES + 1);
    if (got >= 0 && got <= TUNE_FILE_MAX_BYTES) {
        buf[got] = '\0';
        *text = buf;
        *len = (size_t)got;
        return 0;
    }
    if (got < 0)
        snprintf(err, errlen, "%s: cannot read tuning file: %s", path, strerror(errno));
    else
        snprintf(err, errlen, "%s: more than the " CAP_TEXT " a tuning file may hold (it grew while read)",
                 path);
    free(buf);
    return -1;
}

int tune_read_file(const char *raw_path, char **text, size_t *len, char *err, size_t errlen)
{
    char path[4 * 512 + 8];
    struct stat st;
    int rc = -1;
    tune_escape(raw_path, strlen(raw_path), 512, path, sizeof path);
    *text = NULL;
    *len = 0;
    if (stat(raw_path, &st) == 0 && check_stat(&st, path, err, errlen))
        return -1;
    int fd = open(raw_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot open tuning file: %s", path, strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0)
        snprintf(err, errlen, "%s: cannot stat tuning file: %s", path, strerror(errno));
    else if (!check_stat(&st, path, err, errlen))
        rc = read_text(fd, path, text, len, err, errlen);
    close(fd);
    return rc;
}

int tune_parse_file(const char *path, struct tune_table *t, char *err, size_t errlen)
{
    char *text;
    size_t len;
    memset(t, 0, sizeof *t);
    if (tune_read_file(path, &text, &len, err, errlen))
        return -1;
    int rc = tune_parse_text(text, len, path, t, err, errlen);
    free(text);
    return rc;
}
