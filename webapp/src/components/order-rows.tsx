import type { Order } from '../api/client';
import { t } from '../i18n';
import type { Nav } from '../nav';
import { Row, Status } from './ui';

/** Orders as rows (title, price, id, status); a row opens the order. */
export function OrderRows(p: { items: Order[]; nav: Nav }) {
  if (!p.items.length) return <p class="muted pad">{t.noOrders}</p>;
  return (
    <>
      {p.items.map((o) => (
        <Row
          key={o.order_id}
          testid={`order-${o.order_id}`}
          label={
            <>
              <b>{o.label}</b>
              <small class="muted block">
                {o.partner_price} {o.currency} · {o.order_id}
              </small>
            </>
          }
          value={<Status status={o.status} />}
          onClick={() => p.nav.go({ page: 'order-detail', id: o.order_id })}
        />
      ))}
    </>
  );
}
