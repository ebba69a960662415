// Loaded with `--import` into every process a test spawns (test/helpers/child-process.ts). The test
// process holds an IPC channel to this one; when that process dies, even by SIGKILL, the channel closes, and this
// process ends its whole process group (it leads one: it was spawned detached), so no server outlives the run.
const endGroup = (): void => {
  try {
    process.kill(-process.pid, 'SIGKILL');
  } catch {
    process.exit(1);
  }
};
if (process.channel === undefined) {
  throw new Error('exit-with-parent.ts needs an IPC channel to the test process');
}
// The channel must not keep a process alive that would otherwise end (a CLI, a server refusing its configuration).
process.channel.unref();
process.once('disconnect', endGroup);
// In case the channel closes unnoticed: a parent that is gone leaves this process to another parent.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) endGroup();
}, 1_000).unref();
