// What the board offers to choose from (categories, periods, sorts), as the server gave it in the page's
// `server-choices` data block (api/pages/pageShell.ts): the pages never keep their own copy of those lists.
export const SERVER_CHOICES = JSON.parse(document.getElementById('server-choices').textContent);
