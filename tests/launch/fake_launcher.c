/* fake_launcher.c - a launcher that runs nothing (tests/launch/collshim_run.sh),
 * built under the names of the real ones. It writes into RECORD_DIR its
 * arguments (launched.args), its environment (launched.env) and the
 * children it inherited from collshim-run, whose process it replaced by
 * exec (launched.children): a real launcher may take such a child for one
 * of its ranks, as Hydra does. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static void write_lines(const char *path, char *const *lines)
{
    FILE *file = fopen(path, "w");
    if (!file)
        return;
    for (; *lines; lines++)
        fprintf(file, "%s\n", *lines);
    fclose(file);
}

/* The children this process has: their ids once they have ended, and
 * "running" for those still running. */
static void write_children(const char *path)
{
    FILE *file = fopen(path, "w");
    if (!file)
        return;
    usleep(300000); /* a child still ending at the exec has time to end */
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
        fprintf(file, "%d\n", (int)pid);
    if (pid == 0)
        fprintf(file, "running\n");
    fclose(file);
}

int main(int argc, char **argv)
{
    (void)argc;
    write_children(RECORD_DIR "/launched.children");
    write_lines(RECORD_DIR "/launched.args", argv + 1);
    write_lines(RECORD_DIR "/launched.env", environ);
    return 0;
}
