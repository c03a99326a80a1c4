import { afterEach, describe, expect, it } from 'vitest';
import { toRes } from '../helpers.js';
import { waitFor } from './fake-telegram.js';
import { newUser, settle, World } from './harness.js';

let w: World | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

async function signIn(world: World, url: string, origin: string) {
  const token = /#signin=([A-Za-z0-9_-]+)/.exec(url)![1];
  return toRes(await world.t.app.inject({ method: 'POST', url: '/api/app/v1/sign-in', payload: { token }, headers: { origin } }));
}

describe('the bot opens the Mini App', () => {
  it('sets the menu button to the web app; /app answers the web_app button and a one-time sign-in link', async () => {
    w = await World.start({ PUBLIC_BASE_URL: 'https://dash.example.test' });
    const menu = await waitFor(() => w!.tg.callsOf('setChatMenuButton')[0], 'the menu button');
    const mb = typeof menu.payload.menu_button === 'string' ? JSON.parse(menu.payload.menu_button) : menu.payload.menu_button;
    expect(mb).toEqual({ type: 'web_app', text: 'Dashboard', web_app: { url: 'https://dash.example.test/app/' } });

    const p = await w.t.newPartner();
    const u = newUser('ru');
    await w.link(u, p.id, 'staff');
    const chat = w.chat(u);
    await chat.say('/app');
    const m = await chat.expect('https://dash.example.test/app/#signin=');
    expect(m.text).toMatch(/Кабинет партнёра/);
    expect(m.buttons).toEqual([[{ text: 'Открыть кабинет', web_app: { url: 'https://dash.example.test/app/' } }]]);
    const url = /https:\/\/\S+/.exec(m.text)![0];
    const s = await signIn(w, url, 'https://dash.example.test');
    expect(s.status).toBe(200);
    expect(s.body.user).toEqual({ telegram_id: u.id, role: 'staff', operator: false });
    // single use
    expect((await signIn(w, url, 'https://dash.example.test')).status).toBe(401);
    // the linked user's own command menu offers /app
    const own = await waitFor(() => w!.tg.callsOf('setMyCommands').find((c) => c.payload.scope?.chat_id === u.id), 'the user’s command menu');
    expect(own.payload.commands).toEqual(expect.arrayContaining([expect.objectContaining({ command: 'app' })]));
    // and the chat's menu button reads in their language, set once
    const ruButton = await waitFor(() => w!.tg.callsOf('setChatMenuButton').find((c) => Number(c.payload.chat_id) === u.id), 'the chat’s menu button');
    expect(ruButton.payload.menu_button).toEqual({ type: 'web_app', text: 'Кабинет', web_app: { url: 'https://dash.example.test/app/' } });
    await chat.say('/balance');
    await chat.expect('Балансы');
    await settle(w);
    expect(w.tg.callsOf('setChatMenuButton').filter((c) => Number(c.payload.chat_id) === u.id)).toHaveLength(1);
    // an English user keeps the default
    const en = newUser('en');
    await w.link(en, p.id, 'staff');
    await settle(w);
    expect(w.tg.callsOf('setChatMenuButton').filter((c) => Number(c.payload.chat_id) === en.id)).toEqual([]);
  });

  it('with an http address: no web_app button (Telegram refuses it), the link only; unlinked users get the explanation', async () => {
    w = await World.start();
    const p = await w.t.newPartner();
    const u = newUser('en');
    await w.link(u, p.id, 'owner');
    const chat = w.chat(u);
    await chat.say('/app');
    const m = await chat.expect('/app/#signin=');
    expect(m.buttons).toEqual([]);
    expect(w.tg.callsOf('setChatMenuButton')).toEqual([]);
    const stranger = w.chat(newUser('en'));
    await stranger.say('/app');
    await settle(w);
    expect(stranger.fresh.map((x) => x.text).join('\n')).not.toContain('signin=');
    expect(stranger.fresh.length).toBe(1);
  });
});
