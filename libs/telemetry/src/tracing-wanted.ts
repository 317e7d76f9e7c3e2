/** Whether the OTEL_* variables ask for traces to be exported anywhere. */
export function tracingWanted(env: Record<string, string | undefined>): boolean {
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? 'none').split(',').map((name) => name.trim());
  return exporters.some((name) => name !== '' && name !== 'none');
}
