import { sql } from "drizzle-orm";
import { rowsOf, type Tx } from "../../db/client.js";

type StatusRow = {
  monitor_id: string;
  state: string | null;
  ppk: number | string | null;
  alert_id: string | null;
};

export function createCapAlertsRepo(db: Tx) {
  return {
    /** Each cap monitor of the line with its latest evaluation's state and Ppk, and its latest alert. */
    async status(customerId: string, lineId: string) {
      const result = await db.execute(sql`
        select m.id as monitor_id, e.state, e.ppk, a.id as alert_id
        from monitors m
        left join lateral (
          select ev.state, (ev.details ->> 'ppk') as ppk
          from evaluations ev
          where ev.monitor_id = m.id
          order by ev.slot desc
          limit 1
        ) e on true
        left join lateral (
          select al.id from alerts al where al.monitor_id = m.id order by al.opened_at desc limit 1
        ) a on true
        where m.customer_id = ${customerId} and m.line_id = ${lineId} and m.type = 'cap'
        order by m.name`);
      return rowsOf<StatusRow>(result);
    },
  };
}
