/** The job that processes an order, step by step (ref = order id): src/workers/order-job.ts. */
export const ORDER_JOB = 'order.process';
