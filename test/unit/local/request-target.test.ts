import { requestTarget } from '../../../local/gateway';

describe('requestTarget (the local gateway reads the path and query as sent)', () => {
  it.each([
    ['/ping', { pathname: '/ping', query: '' }],
    ['/lab-ranges/?sex=male&sex=', { pathname: '/lab-ranges/', query: 'sex=male&sex=' }],
    // WHATWG URL read these as an authority: `//` threw (answered 500), `//ping` became host `ping`.
    ['//', { pathname: '//', query: '' }],
    ['//ping?a=1', { pathname: '//ping', query: 'a=1' }],
    ['//%F1%B9%81%B5/x', { pathname: '//%F1%B9%81%B5/x', query: '' }],
    // Dot segments and escapes stay as sent: they match no route rather than another one.
    ['/%2e%2e/ping', { pathname: '/%2e%2e/ping', query: '' }],
    ['/widget/v1/../../package.json', { pathname: '/widget/v1/../../package.json', query: '' }],
    ['/ping??a=?', { pathname: '/ping', query: '?a=?' }],
    // Absolute form, as proxies send it.
    ['http://127.0.0.1:3000/ping?x', { pathname: '/ping', query: 'x' }],
    ['http://127.0.0.1:3000', { pathname: '/', query: '' }],
  ])('%s', (target, expected) => {
    expect(requestTarget(target)).toEqual(expected);
  });
});
