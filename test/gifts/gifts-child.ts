import { testConfig } from '../test-config.js';
import { createLogger } from '../../src/kernel/log.js';
import { createService } from '../../src/service.js';
import { MtcuteGateway } from '../../src/suppliers/telegram-gifts/mtcute-gateway.js';
import { HttpTlCaller } from './tl-wire.js';

/**
 * The service as its own process for the gift crash tests: src/main.ts's start-up (configuration, the
 * composition root, listening, workers) with one change, the gift account's MTProto connection replaced
 * by the real MTProto gateway over HTTP to the fake Telegram (FAKE_TELEGRAM_URL). Killed with SIGKILL by
 * the tests; it never exits on its own.
 */
process.env.TZ = 'UTC';
// the sandbox world around the Telegram adapter, as in the in-process gift tests (test/test-config.ts)
const config = testConfig(process.env);
const log = createLogger(config.LOG_LEVEL);
const svc = await createService({ config, log, giftGateway: new MtcuteGateway(new HttpTlCaller(process.env.FAKE_TELEGRAM_URL!)) });
await svc.app.listen({ port: config.PORT, host: config.HOST });
log.info({ url: config.publicBaseUrl }, 'listening');
