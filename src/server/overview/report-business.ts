import type { ReportBusiness } from '../../domain/reports';
import type { Db } from '../db/scope';

/** The business as a report's or a statement's heading names it: its registered name when it has one. */
export async function reportBusiness(db: Db, businessId: number): Promise<ReportBusiness> {
  const business = await db
    .selectFrom('businesses')
    .select(['name', 'registered_name', 'trade_name', 'address', 'tin'])
    .where('id', '=', businessId)
    .executeTakeFirstOrThrow();
  return {
    name: business.registered_name?.trim() ? business.registered_name : business.name,
    trade_name: business.trade_name,
    address: business.address,
    tin: business.tin,
  };
}
