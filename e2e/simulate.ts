import { ApiClient } from '../tools/simulator/src/api-client';
import { driveShipments, ensureDemoConfiguration } from '../tools/simulator/src/driver';
import { planShipment, type ProfileName, type ShipmentPlan } from '../tools/simulator/src/index';
import { E2E_ADMIN } from '../playwright.config';

/**
 * The simulator (`npm run simulate`) driving one arrived xt1 shipment of a
 * profile (the `nth` such plan) through the public API, signed in as `who` with a device token:
 * start, shipment details, scans carrying the growing log, stop. Answers
 * the plan and the record the server made of it.
 */
export async function simulateShipment(
  baseUrl: string,
  profile: ProfileName,
  serialPrefix: string,
  options: { nth?: number; who?: typeof E2E_ADMIN } = {},
): Promise<{ plan: ShipmentPlan; recordId: string }> {
  const who = options.who ?? E2E_ADMIN;
  let skip = options.nth ?? 0;
  const client = new ApiClient({ baseUrl });
  await client.login(who.email, who.password);
  await client.issueToken(`e2e ${serialPrefix}`, 1);
  const { locationIds } = await ensureDemoConfiguration(client);
  const planOptions = { seed: 7, now: Date.now() / 1000, serialPrefix };
  let plan: ShipmentPlan | undefined;
  for (let i = 0; !plan && i < 300; i++) {
    const p = planShipment(planOptions, i);
    if (p.family !== 'XT1_NFC_MU' || p.profile !== profile || p.state !== 'arrived') continue;
    if (skip-- === 0) plan = p;
  }
  if (!plan) throw new Error(`the simulator plans no arrived xt1 shipment of ${profile}`);
  const [outcome] = await driveShipments(client, [plan], locationIds, { seed: 7 });
  if (!outcome?.recordId || outcome.errors.length > 0) {
    throw new Error(`the simulated shipment failed: ${outcome?.errors.join('; ') ?? 'no outcome'}`);
  }
  return { plan, recordId: outcome.recordId };
}
