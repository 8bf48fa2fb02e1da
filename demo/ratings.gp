# ratings.gp — run by demo.sh: four players' ratings per period with their
# 95 % bands (rating +- 2 RD) and hidden strengths (dashed), closed with
# tau 0.5 (top) and replayed with the tau glicko2_fit_tau chose (bottom).
# Input: demo/out/tau_default.dat and tau_fitted.dat (one block per player:
# its name, then "period rating lower upper strength"), demo/out/tau.txt.
set terminal pngcairo size 1000,1000 font "sans,11"
set output "demo/out/ratings.png"
fitted = system("cat demo/out/tau.txt")
colors = "#1f77b4 #d62728 #2ca02c #9467bd"
set xlabel "rating period"
set ylabel "rating"
set key outside right top
set grid ytics
set xrange [1:20]
set yrange [800:2200]
set xtics 1
set multiplot layout 2,1 title "Demo league: ratings with 95 % intervals (bands); hidden strengths dashed\nplayers 10 and 20 change by 300 points after period 10"
do for [f in "tau_default tau_fitted"] {
  set title (f eq "tau_default" ? "closed with tau = 0.5" : "replayed with the fitted tau = ".fitted)
  file = "demo/out/".f.".dat"
  plot for [i=0:3] file index i using 1:3:4 with filledcurves \
           fillcolor rgb word(colors, i + 1) fillstyle transparent solid 0.15 notitle, \
       for [i=0:3] file index i using 1:2 with linespoints \
           linecolor rgb word(colors, i + 1) linewidth 2 pointtype 7 pointsize 0.6 title columnheader(1), \
       for [i=0:3] file index i using 1:5 with lines \
           linecolor rgb word(colors, i + 1) dashtype 2 linewidth 1.5 notitle
}
unset multiplot
