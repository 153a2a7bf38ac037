import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths';

/**
 * The hot-tenant scenario with acme at 40% from the second second (hot-tenant waits 30 s): the diagnosis names
 * tenant-cost's hot subtask within seconds of a page. Written under test-results/ by `writeHotTenantAtOnce` (in a
 * spec's beforeAll, before its console starts).
 */
export const HOT_TENANT_AT_ONCE = path.join(ROOT, 'test-results/scenarios/hot-tenant-at-once.yaml');

export function writeHotTenantAtOnce(): void {
  const scenario = readFileSync(path.join(ROOT, 'resources/scenarios/hot-tenant.yaml'), 'utf8').replace('name: hot-tenant', 'name: hot-tenant-at-once').replace('- at: 30s', '- at: 2s');
  mkdirSync(path.dirname(HOT_TENANT_AT_ONCE), { recursive: true });
  writeFileSync(HOT_TENANT_AT_ONCE, scenario);
}
