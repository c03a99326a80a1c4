/** The job that processes an order, step by step (ref = order id): src/app/orders/process.ts, run by the scheduler (src/workers/jobs.ts). */
export const ORDER_JOB = 'order.process';
