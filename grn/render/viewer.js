(function(){"use strict";
/* grn's game viewer: one self-contained instance per <div class="grn-viewer">, no global names.
   It knows no rules: every position, move, score and event comes from grn's engine (grn/render/viewer.py). */
var D=/*DATA*/null;
var S=document.currentScript,R=S&&S.previousElementSibling;
if(!R||!R.classList||!R.classList.contains("grn-viewer")){return;}
var DIGITS="0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
var items=D.items.split("\n"),g=-1,cur=0,G=null,kids=[],pics=[],buttons=[];
function q(c){return R.querySelector(".grn-"+c);}
function el(tag,cls,text){var e=document.createElement(tag);if(cls){e.className=cls;}if(text!==undefined&&text!==null){e.textContent=text;}return e;}
function clear(e){while(e.firstChild){e.removeChild(e.firstChild);}}
function who(k){var n=G.names[k];return n?n+" ("+k+")":k;}
function heading(n){if(n.t){return n.t;}return "Turn "+n.n+", "+who(n.k);}
function said(n){if(n.t){return n.t;}return n.n+". "+(G.names[n.k]||n.k)+": "+n.w;}
function pic(i){
  var chain=[],j=i;while(j>=0&&!pics[j]){chain.push(j);j=G.nodes[j].p;}
  var base=j>=0?pics[j]:[];
  for(var c=chain.length-1;c>=0;c--){var a=base.slice(),E=G.nodes[chain[c]].f[1];
    for(var e=0;e<E.length;e++){var x=E[e],ins=[x[0],x[1]];
      /* -k: the k ids after the one before it (grn.render.frames) */
      for(var k=2;k<x.length;k++){if(x[k]<0){for(var t=1;t<=-x[k];t++){ins.push(ins[ins.length-1]+1);}}else{ins.push(x[k]);}}
      Array.prototype.splice.apply(a,ins);}
    pics[chain[c]]=a;base=a;}
  return pics[i];}
function moveButton(i){
  var n=G.nodes[i],b=el("button","grn-mv");b.type="button";b.setAttribute("data-node",String(i));b.tabIndex=-1;
  if(n.t){b.appendChild(el("span","grn-num",n.t));}
  else{b.appendChild(el("span","grn-num",n.n+". "));b.appendChild(el("span","grn-who",(G.names[n.k]||n.k)+": "));
    b.appendChild(el("span","grn-words",n.w));b.title=n.m;}
  if(n.g){b.appendChild(el("span","grn-glyph"," "+n.g));}
  if(n.v&&n.v[5]){b.appendChild(el("span","grn-judge grn-"+n.v[5]," "+n.v[5]+" (\u2212"+n.v[4].toFixed(1)+")"));}
  if(n.b){b.insertBefore(el("span","grn-bestmark","best move: "),b.firstChild);}
  if(n.x){var w=el("span","grn-flag"," \u26a0 problem");b.appendChild(w);b.title=(b.title?b.title+"\n":"")+n.x.join("\n");}
  b.onclick=function(){go(i,true);};
  buttons[i]=b;return b;}
function line(i,box){
  while(i!==undefined){
    var n=G.nodes[i],row=el("div","grn-row");row.appendChild(moveButton(i));box.appendChild(row);
    if(n.c){for(var k=0;k<n.c.length;k++){row.appendChild(el("span","grn-comment",n.c[k]));}}
    if(n.p>=0&&kids[n.p][0]===i&&kids[n.p].length>1){
      for(var v=1;v<kids[n.p].length;v++){var f=G.nodes[kids[n.p][v]],d=el("div","grn-var");d.setAttribute("role","group");
        d.setAttribute("aria-label",(f.b?"the analysis's best move":"variation "+v)+" instead of turn "+f.n);if(f.b){d.className+=" grn-bestvar";}line(kids[n.p][v],d);box.appendChild(d);}}
    i=kids[i][0];}}
function load(k){
  g=k;G=D.games[k];kids=G.nodes.map(function(){return [];});pics=[];buttons=[];
  G.nodes.forEach(function(n,i){if(n.p>=0){kids[n.p].push(i);}
    if(n.d===undefined){n.d=0;}if(n.a===undefined){n.a=String(n.n);}n.i=n.p>=0?G.nodes[n.p].i+1:0;
    /* left out of the data: the parent's panel; the open squares are "SQUARES|COUNTS", the squares written
       against the parent's when it has some: =k copies its next k, ~k skips them (grn.render.viewer.open_words) */
    if(n.p>=0){var P=G.nodes[n.p];if(n.pl===undefined){n.pl=P.pl;}if(n.pp===undefined){n.pp=P.pp;}
      else if(n.pp&&P.pp){n.pp=n.pp.map(function(x,i){return x===0?P.pp[i]:x;});}}
    /* the counts: one digit of DIGITS a count, or "_" and two */
    if(typeof n.o==="string"){var up=n.p>=0&&G.nodes[n.p].o||null,at=0,o=[],h=n.o.split("|"),c=[],t=h[1];
      for(var ci=0;ci<t.length;ci++){if(t[ci]==="_"){c.push(DIGITS.indexOf(t[ci+1])*62+DIGITS.indexOf(t[ci+2]));ci+=2;}else{c.push(DIGITS.indexOf(t[ci]));}}
      h[0].split(" ").forEach(function(x){var k=+x.slice(1);
        if(up&&x[0]==="="){o=o.concat(up.slice(at,at+k).map(function(y){return y[0];}));at+=k;}
        else if(up&&x[0]==="~"){at+=k;}else{o.push(x);}});
      n.o=o.map(function(x,i){return [x,c[i]];});}});
  G.mainLen=G.nodes.filter(function(m){return m.d===0;}).length;
  var list=q("moves");clear(list);line(0,list);
  chart();review();
  var leg=q("legend");clear(leg);
  G.players.forEach(function(p,j){var li=el("li");var s=document.createElementNS("http://www.w3.org/2000/svg","svg");
    s.setAttribute("width","28");s.setAttribute("height","10");s.setAttribute("aria-hidden","true");
    var l=document.createElementNS("http://www.w3.org/2000/svg","line");l.setAttribute("x1","0");l.setAttribute("x2","28");
    l.setAttribute("y1","5");l.setAttribute("y2","5");l.setAttribute("stroke-width","2.2");l.setAttribute("stroke",G.colours[j]);
    if(DASH[j%5]){l.setAttribute("stroke-dasharray",DASH[j%5]);}
    s.appendChild(l);li.appendChild(s);li.appendChild(document.createTextNode(" "+p[1]+" ("+p[0]+")"));leg.appendChild(li);});
  var tags=q("tags");clear(tags);
  G.tags.forEach(function(t){if(["Event","Site","Date","Round","Result","License","Annotator"].indexOf(t[0])<0){return;}
    tags.appendChild(el("dt",null,t[0]));tags.appendChild(el("dd",null,t[1]));});
  var all=q("allproblems");clear(all);
  G.problems.forEach(function(p){all.appendChild(el("li",null,(p[0]!==null?"turn "+p[0]+": ":"")+p[1]));});
  q("validity").textContent=G.valid?(G.complete?"valid, complete":"valid, not finished"):"not valid: "+G.problems.length+" problem"+(G.problems.length===1?"":"s");
  var pick=q("game");if(pick){pick.value=String(k);}}
var NS="http://www.w3.org/2000/svg",DASH=["","6 3","2 3","8 3 2 3","1 2"];
function svgEl(tag,at,parent){var e=document.createElementNS(NS,tag);for(var k in at){e.setAttribute(k,at[k]);}parent.appendChild(e);return e;}
function chart(){
  /* the scores along the main line as lines, one per player: colour and dash pattern tell them apart */
  var box=q("chart");clear(box);var main=G.nodes.filter(function(m){return !m.d;}),W=360,H=180,L=34,Rm=10,T=12,B=24;
  var n=Math.max(1,main.length-1),top=1;main.forEach(function(m){m.s.forEach(function(v){top=Math.max(top,v);});});
  var dx=(W-L-Rm)/n,sy=(H-T-B)/top;G.chart={x0:L,dx:dx};
  var s=svgEl("svg",{viewBox:"0 0 "+W+" "+H,"class":"score-chart",role:"img","font-size":"10",
    "aria-label":"Scores after each turn: "+G.players.map(function(p){return p[1];}).join(", ")},box);
  svgEl("rect",{width:W,height:H,fill:"#fbf6ea",stroke:"#b9a57f"},s);
  [0,0.5,1].forEach(function(f){var v=Math.round(top*f),y=H-B-v*sy;svgEl("line",{x1:L,x2:W-Rm,y1:y,y2:y,stroke:"#ddd0b3"},s);
    svgEl("text",{x:L-4,y:y+4,"text-anchor":"end",fill:"#5b4a36"},s).textContent=String(v);});
  svgEl("text",{x:L,y:H-8,fill:"#5b4a36"},s).textContent="turn 0";
  svgEl("text",{x:W-Rm,y:H-8,"text-anchor":"end",fill:"#5b4a36"},s).textContent=String(main.length-1);
  G.players.forEach(function(p,j){var pts=main.map(function(m,i){return (L+i*dx).toFixed(1)+","+(H-B-m.s[j]*sy).toFixed(1);}).join(" ");
    var l=svgEl("polyline",{"class":"series",points:pts,fill:"none",stroke:G.colours[j],"stroke-width":"2.2"},s);
    if(DASH[j%5]){l.setAttribute("stroke-dasharray",DASH[j%5]);}svgEl("title",{},l).textContent=p[1];});
  svgEl("line",{"class":"cursor",x1:L,x2:L,y1:T,y2:H-B,stroke:"#2b2118","stroke-width":"1.5","stroke-dasharray":"3 3"},s);}
function sgn(x){return (x>0?"+":x<0?"\u2212":"\u00b1")+Math.abs(x).toFixed(1);}
function legend(box){clear(box);
  G.players.forEach(function(p,j){var li=el("li"),s=svgEl("svg",{width:28,height:10,"aria-hidden":"true"},li);
    var l=svgEl("line",{x1:0,x2:28,y1:5,y2:5,"stroke-width":"2.2",stroke:G.colours[j]},s);
    if(DASH[j%5]){l.setAttribute("stroke-dasharray",DASH[j%5]);}
    li.appendChild(document.createTextNode(" "+p[1]+" ("+p[0]+")"));box.appendChild(li);});}
function review(){
  /* the analysis written in the record (grn analyse --format grn), read back by grn: never computed here */
  var on=!!G.review;R.querySelectorAll(".grn-analysis").forEach(function(e){e.hidden=!on;});
  var box=q("evalchart");clear(box);var tb=q("summary");clear(tb);if(!on){return;}
  var main=G.nodes.filter(function(m){return !m.d;}),W=360,H=180,L=34,Rm=10,T=12,B=24,n=Math.max(1,main.length-1),top=1;
  main.forEach(function(m){if(m.v){top=Math.max(top,Math.abs(m.v[0]));}});top=Math.ceil(top);
  var dx=(W-L-Rm)/n,mid=T+(H-T-B)/2,sy=(H-T-B)/2/top,worst=[];
  var s=svgEl("svg",{viewBox:"0 0 "+W+" "+H,"class":"eval-chart",role:"img","font-size":"10"},box);
  svgEl("rect",{width:W,height:H,fill:"#fbf6ea",stroke:"#b9a57f"},s);
  [top,0,-top].forEach(function(v){var y=mid-v*sy;svgEl("line",{x1:L,x2:W-Rm,y1:y,y2:y,stroke:v?"#ddd0b3":"#8f7a55"},s);
    svgEl("text",{x:L-4,y:y+4,"text-anchor":"end",fill:"#5b4a36"},s).textContent=v?sgn(v):"0";});
  svgEl("text",{x:L,y:H-8,fill:"#5b4a36"},s).textContent="turn 0";
  svgEl("text",{x:W-Rm,y:H-8,"text-anchor":"end",fill:"#5b4a36"},s).textContent=String(main.length-1);
  G.players.forEach(function(p,j){var pts=[];
    main.forEach(function(m,i){if(m.v&&m.k===p[0]){pts.push([L+i*dx,mid-m.v[0]*sy,m,i]);}});
    if(!pts.length){return;}
    var l=svgEl("polyline",{"class":"series",points:pts.map(function(x){return x[0].toFixed(1)+","+x[1].toFixed(1);}).join(" "),
      fill:"none",stroke:G.colours[j],"stroke-width":"2.2"},s);
    if(DASH[j%5]){l.setAttribute("stroke-dasharray",DASH[j%5]);}svgEl("title",{},l).textContent=p[1]+": expected final margin after each move";
    pts.forEach(function(x){var m=x[2];if(!m.v[5]){return;}
      var r={inaccuracy:3,mistake:4.5,blunder:6}[m.v[5]],c=svgEl("circle",{"class":"judged "+m.v[5],cx:x[0].toFixed(1),cy:x[1].toFixed(1),r:r,
        fill:G.colours[j],stroke:"#2b2118","stroke-width":"1.2"},s);
      svgEl("title",{},c).textContent="turn "+m.n+", "+p[1]+": "+m.v[5]+", lost "+m.v[4].toFixed(1)+" points";
      worst.push(m);});});
  svgEl("line",{"class":"cursor",x1:L,x2:L,y1:T,y2:H-B,stroke:"#2b2118","stroke-width":"1.5","stroke-dasharray":"3 3"},s);
  worst.sort(function(a,b){return b.v[4]-a.v[4];});
  s.setAttribute("aria-label","Evaluation chart: each player's expected final margin (points ahead of the others) after each of their moves, from "+
    sgn(-top)+" to "+sgn(top)+". "+(worst.length?"Judged moves: "+worst.slice(0,5).map(function(m){return "turn "+m.n+" "+(G.names[m.k]||m.k)+" "+m.v[5];}).join(", ")+".":"No move judged."));
  G.evalChart={x0:L,dx:dx};
  /* the luck of the draw, turn by turn (R336): a bar up for a draw better than the bag's mean, down for worse;
     G.lw names what it weighs where it is not a tile drawn (R456: Gold's cards turned) */
  var LW=G.lw||["luck of the draw","the tile drawn against what the bag held"];
  var lucky=main.filter(function(m){return m.v&&m.v.length>8&&m.v[8]!==null;});
  if(lucky.length){var LH=60,lm=LH/2,lt=1;lucky.forEach(function(m){lt=Math.max(lt,Math.abs(m.v[8]));});
    var ls=svgEl("svg",{viewBox:"0 0 "+W+" "+LH,"class":"luck-chart",role:"img","font-size":"10"},box),ly=(LH/2-4)/lt;
    svgEl("rect",{width:W,height:LH,fill:"#fbf6ea",stroke:"#b9a57f"},ls);
    svgEl("line",{x1:L,x2:W-Rm,y1:lm,y2:lm,stroke:"#8f7a55"},ls);
    svgEl("text",{x:L-4,y:lm+4,"text-anchor":"end",fill:"#5b4a36"},ls).textContent="luck";
    var sums={};
    main.forEach(function(m,i){if(!(m.v&&m.v.length>8&&m.v[8]!==null)){return;}var j=G.players.map(function(p){return p[0];}).indexOf(m.k),h=m.v[8]*ly;
      sums[m.k]=(sums[m.k]||0)+m.v[8];
      var b=svgEl("rect",{x:(L+i*dx-Math.max(1,dx*0.35)).toFixed(1),y:(h>0?lm-h:lm).toFixed(1),width:Math.max(2,dx*0.7).toFixed(1),
        height:Math.max(0.5,Math.abs(h)).toFixed(1),fill:G.colours[Math.max(0,j)]},ls);
      svgEl("title",{},b).textContent="turn "+m.n+", "+(G.names[m.k]||m.k)+": "+LW[0]+" "+sgn(m.v[8]);});
    ls.setAttribute("aria-label",LW[0].charAt(0).toUpperCase()+LW[0].slice(1)+", turn by turn: "+G.players.map(function(p){return (G.names[p[0]]||p[0])+" "+sgn(sums[p[0]]||0);}).join(", ")+" in all.");}
  /* a click on the chart goes to that turn, as lichess's advantage chart does */
  s.addEventListener("click",function(e){var b=s.getBoundingClientRect(),x=(e.clientX-b.left)*W/b.width,i=Math.round((x-L)/dx);
    i=Math.max(0,Math.min(main.length-1,i));go(G.nodes.indexOf(main[i]));});
  legend(q("evallegend"));
  var hr=el("tr");[["player"],["moves"],["accuracy"],["lost per move","average points lost per move"],["?!","inaccuracies"],["?","mistakes"],["??","blunders"]].forEach(function(h){
    var th=el("th",null,h[0]);th.scope="col";if(h[1]){th.title=h[1];th.setAttribute("aria-label",h[1]);}hr.appendChild(th);});
  var th=el("thead");th.appendChild(hr);tb.appendChild(th);var body=el("tbody");tb.appendChild(body);
  G.review.forEach(function(r){var tr=el("tr");tr.appendChild(el("th",null,(G.names[r[0]]||r[0])+" ("+r[0]+")"));
    [String(r[1]),r[1]?r[3].toFixed(1)+"%":"\u2013",r[1]?r[2].toFixed(1):"\u2013",String(r[4]),String(r[5]),String(r[6])].forEach(function(x){tr.appendChild(el("td",null,x));});body.appendChild(tr);});}
function turnEval(n){var box=q("turneval");clear(box);if(!G.review){return;}
  if(!n.v){box.appendChild(el("p","grn-none",n.n&&!n.d?"this turn was not analysed":"no analysis here"));return;}
  var v=n.v,who=G.names[n.k]||n.k;
  box.appendChild(el("p","grn-verdict"+(v[5]?" grn-"+v[5]:""),v[5]?(n.g?n.g+" ":"")+v[5].charAt(0).toUpperCase()+v[5].slice(1)+": "+who+" lost "+v[4].toFixed(1)+" points":
    v[4]>0?"Not judged: "+who+" lost "+v[4].toFixed(1)+" points (within the thresholds or the noise)":"The best move found"));
  box.appendChild(el("p",null,"Expected final margin after the move played: "+sgn(v[0])+" \u00b1 "+v[1].toFixed(1)+"; after the best move found: "+sgn(v[2])+" \u00b1 "+v[3].toFixed(1)+"."));
  if(v.length>7&&v[6]!==null){box.appendChild(el("p","grn-win","Chance to win after the move played: "+Math.round(100*v[6])+"%; after the best move found: "+Math.round(100*v[7])+"%."));}
  if(v.length>8&&v[8]!==null){var LW=G.lw||["luck of the draw","the tile drawn against what the bag held"];
    box.appendChild(el("p","grn-luck",LW[0].charAt(0).toUpperCase()+LW[0].slice(1)+": "+sgn(v[8])+" points ("+LW[1]+")."));}
  if(n.bw){box.appendChild(el("p","grn-best","Best move: "+n.bw+" ("+n.bm+"), drawn on the board."));}}
function fill(box,xs,none){clear(box);if(!xs||!xs.length){box.appendChild(el("li","grn-none",none));return;}
  for(var k=0;k<xs.length;k++){box.appendChild(el("li",null,xs[k]));}}
function show(){
  var n=G.nodes[cur],board=q("board");
  if(n.f[0]<0){board.textContent="This game cannot be drawn.";}
  else{board.innerHTML=items[n.f[0]]+pic(cur).map(function(x){return items[x];}).join("")+"<\/svg>";}
  var text=heading(n)+(n.w?": "+n.w:"")+(n.g?" "+n.g:"");
  board.setAttribute("aria-label","Position "+(n.a==="0"?"at the start":n.a==="final"?"after the final scoring":"after "+heading(n))+(n.d?", in a variation":""));
  q("label").textContent=text;q("notation").textContent=n.m?n.n+". "+n.k+" "+n.m:"";
  q("where").textContent=n.d?"In a variation (depth "+n.d+"). Left arrow or the main line's moves lead back.":"Main line";
  var tb=q("scores");clear(tb);var prev=n.p>=0?G.nodes[n.p].s:null;
  /* names, scores and pieces as text beside the board: readable however large the board grows */
  G.players.forEach(function(p,j){var tr=el("tr","grn-player");tr.appendChild(el("th",null,p[1]+" ("+p[0]+")"));
    tr.appendChild(el("td","grn-score",String(n.s[j])));var d=prev?n.s[j]-prev[j]:0;
    tr.appendChild(el("td","grn-delta",d?(d>0?"+"+d:String(d)):""));
    var j2=n.j?el("td","grn-proj",String(n.j[j])):el("td","grn-proj",n.o||n.j?String(n.s[j]):"");
    if(n.j||n.o){j2.title="if the game ended now";}tr.appendChild(j2);tb.appendChild(tr);
    if(n.pp){var pr=el("tr","grn-pieces"),td=el("td",null,n.pp[j].join(" \u00b7 "));td.colSpan=4;pr.appendChild(td);tb.appendChild(pr);}});
  q("projhead").textContent=n.j||n.o?"if it ended now":"";
  fill(q("panel"),n.pl,"");if(!n.pl){clear(q("panel"));}
  var op=q("open");clear(op);
  if(n.o){var hole=n.o.filter(function(x){return x[1]===0;}).map(function(x){return x[0];});
    op.appendChild(el("p",null,n.o.length+" open square"+(n.o.length===1?"":"s")+"; the tiles left that fit each: "+
      n.o.map(function(x){return x[0]+": "+x[1];}).join(", ")));
    op.appendChild(el("p","grn-hole",hole.length?"No tile left can fill "+hole.join(", ")+".":"Every open square can still be filled."));}
  fill(q("events"),n.e,"no score this turn");fill(q("comments"),n.c,"no comment");fill(q("problems"),n.x,"none at this turn");
  q("status").textContent=text+". Scores: "+G.players.map(function(p,j){return p[1]+" "+n.s[j];}).join(", ")+".";
  turnEval(n);var ec=q("evalchart").querySelector(".cursor");
  if(ec){var ex=G.evalChart.x0+G.evalChart.dx*Math.min(n.i,G.mainLen-1);ec.setAttribute("x1",ex);ec.setAttribute("x2",ex);}
  var c=q("chart").querySelector(".cursor");
  if(c){var x=G.chart.x0+G.chart.dx*Math.min(n.i,G.mainLen-1);c.setAttribute("x1",x);c.setAttribute("x2",x);}
  for(var k=0;k<buttons.length;k++){var b=buttons[k];if(!b){continue;}
    if(k===cur){b.setAttribute("aria-current","step");b.tabIndex=0;}else{b.removeAttribute("aria-current");b.tabIndex=-1;}}
  var mb=buttons[cur];if(mb){var box=q("moves"),top=mb.getBoundingClientRect().top-box.getBoundingClientRect().top+box.scrollTop;
    if(top<box.scrollTop||top>box.scrollTop+box.clientHeight-mb.offsetHeight){box.scrollTop=Math.max(0,top-box.clientHeight/2);}}
  /* a button that disables itself (the last move reached) would drop the focus to the page: the viewer keeps it */
  var had=R.contains(document.activeElement);
  q("prev").disabled=n.p<0;q("first").disabled=cur===0;q("next").disabled=!kids[cur].length;q("last").disabled=!kids[cur].length;
  if(had&&!R.contains(document.activeElement)){R.focus({preventScroll:true});}
  if(had&&document.activeElement&&document.activeElement.disabled){R.focus({preventScroll:true});}}
function go(i,focus){
  if(i===undefined||i<0||i>=G.nodes.length){return;}
  var inList=R.contains(document.activeElement)&&document.activeElement.classList.contains("grn-mv");
  cur=i;show();
  if(D.hash&&history.replaceState){history.replaceState(null,"","#game="+(g+1)+"&turn="+encodeURIComponent(G.nodes[cur].a));}
  if((focus||inList)&&buttons[cur]){buttons[cur].focus();}}
function end(i){while(kids[i].length){i=kids[i][0];}return i;}
function sibling(step){var p=G.nodes[cur].p;if(p<0){return;}var s=kids[p],k=s.indexOf(cur);
  if(s.length>1){go(s[(k+step+s.length)%s.length]);}}
function key(e){var t=e.target&&e.target.tagName;if(t==="INPUT"||t==="SELECT"||t==="TEXTAREA"||e.altKey||e.ctrlKey||e.metaKey){return;}
  var n=G.nodes[cur];
  if(e.key==="ArrowLeft"){go(n.p);}else if(e.key==="ArrowRight"){go(kids[cur][0]);}
  else if(e.key==="Home"){go(0);}else if(e.key==="End"){go(end(cur));}
  else if(e.key==="ArrowUp"){sibling(-1);}else if(e.key==="ArrowDown"){sibling(1);}else{return;}
  e.preventDefault();e.stopPropagation();}
R.addEventListener("keydown",key);
/* a click anywhere on the viewer (the board, a heading) gives it the keys, as a lichess embed does */
R.addEventListener("mousedown",function(e){var t=e.target;
  if(t&&t.closest&&!t.closest("button,select,a,input,textarea")){R.focus({preventScroll:true});}});
if(D.hash){document.addEventListener("keydown",function(e){if(!R.contains(e.target)){key(e);}});}
q("first").onclick=function(){go(0);};q("prev").onclick=function(){go(G.nodes[cur].p);};
q("next").onclick=function(){go(kids[cur][0]);};q("last").onclick=function(){go(end(cur));};
var pick=q("game");if(pick){pick.onchange=function(){load(parseInt(this.value,10));go(0);};}
function fromHash(){
  if(!D.hash){return false;}var m=/^#game=(\d+)(?:&turn=([^&]*))?$/.exec(location.hash);if(!m){return false;}
  var k=parseInt(m[1],10)-1;if(!(k>=0&&k<D.games.length)){return false;}
  if(k!==g){load(k);}var a=m[2]===undefined?"0":decodeURIComponent(m[2]);cur=0;
  for(var i=0;i<G.nodes.length;i++){if(G.nodes[i].a===a){cur=i;break;}}show();return true;}
if(D.hash){window.addEventListener("hashchange",fromHash);}
if(!fromHash()){load(0);cur=0;show();}
R.classList.add("grn-ready");
})();
