/** `org.apache.flink.runtime.JobException` → `JobException`; nested classes keep their outer name (`A$B` → `A$B`). */
export function shortClassName(className: string): string {
  const at = className.lastIndexOf('.');
  return at >= 0 && at < className.length - 1 ? className.slice(at + 1) : className;
}
