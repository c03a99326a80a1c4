import type { Order } from '../api/client';
import { t } from '../i18n';
import { fmtTime } from '../lib/format';
import { labelLine, orderTitle } from '../lib/order-title';
import type { Nav } from '../nav';
import { Row, Status } from './ui';

/** Orders as rows (title, price, id, status); a row opens the order. */
export function OrderRows(p: { items: Order[]; nav: Nav }) {
  if (!p.items.length) return <p class="muted pad">{t.noOrders}</p>;
  return (
    <>
      {p.items.map((o) => {
        const title = orderTitle(o);
        const label = labelLine(o, title);
        return (
        <Row
          key={o.order_id}
          testid={`order-${o.order_id}`}
          label={
            <>
              <b data-testid="order-title">{title}</b>
              {label && <small class="muted block" lang="ru" data-testid="order-label">{label}</small>}
              <small class="muted block">
                {o.partner_price} {o.currency} · {fmtTime(o.created_at)}
              </small>
            </>
          }
          value={<Status status={o.status} />}
          onClick={() => p.nav.go({ page: 'order-detail', id: o.order_id })}
        />
        );
      })}
    </>
  );
}
